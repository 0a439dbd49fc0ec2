// Public entry point of pulumi-gpucloud: re-exports only.
export {};
