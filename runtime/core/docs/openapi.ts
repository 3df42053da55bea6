/** The OpenAPI 3.1 document of both interfaces, built for the configured base paths. */
import type { LoadedData } from "../data/load.ts";
import type { ServiceBases } from "../routes/serviceRoutes.ts";

export type OpenApiDocument = Record<string, unknown> & { info: { title: string; version: string; description?: string } };

export function buildOpenApi(data: LoadedData, bases: ServiceBases): OpenApiDocument {
  return {
    openapi: "3.1.0",
    info: { title: "Hanja API", version: "1.0.0", description: `Unicode Unihan ${data.manifest.unihan.version}; bases ${bases.hanjaBase}, ${bases.quizBase}` },
    paths: {},
  };
}
