-- Ids made inside SQL statements (deliveries created in the statement that writes their event):
-- the same shape as the domain's newId (docs/api.md, "Requests and responses"), `<prefix>_` and
-- a UUIDv7 (48 bits of Unix milliseconds, version 7, random bits, variant 10) in TypeID base32.
CREATE FUNCTION new_typeid(prefix text) RETURNS text
LANGUAGE sql VOLATILE PARALLEL SAFE AS $$
  WITH source AS (
    SELECT lpad(to_hex(floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint), 12, '0') AS millis,
           replace(gen_random_uuid()::text, '-', '') AS random
  ), bits AS (
    -- Two zero bits in front make 130 bits: 26 groups of 5.
    SELECT B'00' || ('x' || millis || '7' || substr(random, 1, 3)
      || substr('89ab', 1 + (('x' || substr(random, 4, 1))::bit(4)::integer & 3), 1)
      || substr(random, 5, 8) || substr(random, 18, 7))::bit(128) AS b
    FROM source
  )
  SELECT prefix || '_' || string_agg(
    substr('0123456789abcdefghjkmnpqrstvwxyz', substring(b FROM i * 5 + 1 FOR 5)::integer + 1, 1), '' ORDER BY i)
  FROM bits, generate_series(0, 25) AS i
$$;
