// The emulator's worker for example/rollout-model:1.0 (a `handler(job, ctx)` module): a good version.
module.exports = { handler: async (job) => ({ version: "1.0", text: `echo: ${job.input.prompt}` }) };
