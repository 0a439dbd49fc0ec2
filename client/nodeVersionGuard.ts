// Imported first by the SDK's entry point: refuses to load under a Node.js too old (nodeVersion.ts).
import { requireNodeVersion } from "./nodeVersion";

requireNodeVersion("this Pulumi program");
