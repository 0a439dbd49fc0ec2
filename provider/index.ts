/**
 * The code that runs inside the engine's provider process. Users do not import this module; the
 * serialized shims in every resource's state reach it with `require("pulumi-gpucloud/provider")`.
 */
export { dispatch as d } from "./dispatch";
export { RESOURCE_KINDS, RESOURCE_MODULE, RESOURCE_TYPES, type ResourceKind } from "./kinds";
