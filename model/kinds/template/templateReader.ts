// How a template is read.
import type { Template } from "../../../client/schemas";
import type { KindReader } from "../kindReader";
import { templateTable, type TemplateArgs } from "./templateFields";

export const templateReader: KindReader<Template, TemplateArgs> = {
  table: templateTable,
  get: (api, id) => api.templates.get(id),
  list: (api) => api.templates.list(),
};
