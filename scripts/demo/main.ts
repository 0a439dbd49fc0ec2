// Entry point for `pulumi up` in the repo root with a locally installed Pulumi CLI (see Pulumi.yaml).
import { demoProgram } from "./program";

export = demoProgram();
