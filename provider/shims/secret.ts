// module.exports is the shim itself, so an installed copy serializes as a bare require (see shim.ts).
import { shimFor } from "./shim";

export = shimFor("secret");
