/**
 * The demo's gated rollout: a second serverless endpoint whose version reaches it only after its
 * smoke tests pass on a canary (created for the check and deleted after it), and pass again on the
 * serving endpoint once every worker runs it (verifyAfterSwitch: a failure there moves it back).
 * `npm run demo -- --rollout-version 1.1` rolls a new version out through the same gate.
 */
import * as gpucloud from "../../sdk";

export function demoRollout(version: string): Record<string, unknown> {
  const rollout = new gpucloud.EndpointRollout("chat", {
    version,
    // The emulator's built-in handler serves any image; the tag names the version.
    template: { name: "demo-chat", imageName: `example/chat-worker:${version}`, isServerless: true, env: { MODEL_NAME: "demo-chat" } },
    endpoint: { name: "demo-chat", gpuTypeIds: ["NVIDIA L4"], workersMin: 1, workersMax: 2, idleTimeout: 5 },
    cases: [
      {
        name: "replies",
        input: { output: { reply: `chat ${version} is up` } },
        expect: { outputPredicates: [{ path: "reply", op: "contains", value: version }] },
        timeoutSeconds: 60,
      },
    ],
    verifyAfterSwitch: true,
  });
  return {
    chatEndpointId: rollout.endpointId,
    chatServingVersion: rollout.servingVersion,
    chatRollout: rollout.history,
  };
}
