import { sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { signatureMayHold } from './src/shared/search-signature.ts';
const q = signatureMayHold(sql.raw('search_signature'), process.argv[2]!);
console.log(new PgDialect().sqlToQuery(q!).sql);
