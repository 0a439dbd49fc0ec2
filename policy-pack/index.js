// The ready policy pack of pulumi-gpucloud: `pulumi preview --policy-pack <this folder>`.
// Its policies and their config are described in the package's docs/policy.md. The package is
// found from this folder: the package this folder ships in, or the dependency of a copy of it.
require("pulumi-gpucloud/policy").createGpucloudPolicyPack();
