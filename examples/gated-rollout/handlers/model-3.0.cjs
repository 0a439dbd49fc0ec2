// The emulator's worker for example/rollout-model:3.0: a version that passes a canary's single
// request and fails once it has served one (as a model that runs out of memory under real use).
let served = 0;
module.exports = {
  handler: async (job) => {
    served += 1;
    if (served > 1) throw new Error("CUDA out of memory after the first request");
    return { version: "3.0", text: `echo: ${job.input.prompt}` };
  },
};
