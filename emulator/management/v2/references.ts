/** templates.ts reads a body's registry here; the reference checks of v2 bodies are the domain's (lookup.ts). */
export { requireRegistry } from "../lookup";
