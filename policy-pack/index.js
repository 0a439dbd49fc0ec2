// The ready policy pack of pulumi-gpucloud: `pulumi preview --policy-pack <this folder>`.
// Its policies and their config are described in the package's docs/policy.md.
require("../dist/sdk/policy/index.js").createGpucloudPolicyPack();
