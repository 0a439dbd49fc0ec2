// The emulator's worker for example/rollout-model:2.0: a broken version (its model never loads).
module.exports = {
  handler: async () => {
    throw new Error("model weights not found in the image");
  },
};
