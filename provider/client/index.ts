// The client: one transport, typed management and job API calls, wire schemas, errors, config.
// Re-exports only.

export * from "./config";
export * from "./createOnce";
export * from "./enums";
export * from "./errorBody";
export * from "./errors";
export * from "./jobs";
export * from "./management";
export * from "./redact";
export * from "./retry";
export * from "./schemas";
export * from "./transport";
export * from "./wire";
export * from "./endpointType";
