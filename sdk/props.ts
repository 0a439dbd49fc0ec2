// The property bag a resource class registers: every output the field table names (undefined until
// the provider fills it, so that each is an Output of the class) with the user's arguments on top.
import { outputNames, type ResourceTable } from "../provider/resources/fieldTable";
import { preloadSqliteQuietly } from "./quietSerializer";

preloadSqliteQuietly();

export function registeredProps(table: ResourceTable<never>, args: object, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const props: Record<string, unknown> = {};
  for (const key of outputNames(table)) props[key] = undefined;
  return Object.assign(props, args, overrides);
}
