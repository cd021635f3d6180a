import type { Sql } from './db/client.ts';
import type { Logger } from './lib/logger.ts';

/**
 * What every part of the server is built with: the database and the log. app.ts assembles the
 * parts from its AppDeps (which extends this) and each part takes the pieces it needs, so that no
 * part imports app.ts for a type. This module sits at the bottom with lib/ and db/ (§2.1).
 */
export interface ServerDeps {
  sql: Sql;
  logger: Logger;
}
