/**
 * The code that runs inside the engine's provider process. Users do not import this module; the
 * serialized shims in every resource's state reach it with `require("pulumi-gpucloud/provider")`.
 */
import { requireNodeVersion } from "../client/nodeVersion";

// Before dispatch loads the clients: under an old Node.js every call would fail far from the cause.
requireNodeVersion("the engine's provider process");

export { dispatch as d } from "./dispatch";
export { RESOURCE_KINDS, RESOURCE_MODULE, RESOURCE_TYPES, type ResourceKind } from "../model/kinds";
