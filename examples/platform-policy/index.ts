// Entry point for `pulumi up`: the stack outputs are what program() returns. The program lives in
// program.ts so that tests can run it through the engine too.
import { program } from "./program";

export = program();
