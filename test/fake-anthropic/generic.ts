/**
 * A minimal value for a JSON Schema, so record kinds the fake does not know yet (new titles) still get
 * a reply that parses. Follows `$ref`s, and honours the minimums the SDK moves into descriptions
 * (`{minLength: 1}`), since a value that fails the engine's own schema would be no use.
 */
import { isObject, type Json } from './request';

export function minimalValue(schema: Json, root: Json = schema): unknown {
  if (typeof schema.$ref === 'string') return minimalValue(resolve(schema.$ref, root), root);
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  const options = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(options)) {
    const variants = options.filter(isObject);
    if (variants.some((v) => v.type === 'null')) return null;
    return variants.length ? minimalValue(variants[0], root) : null;
  }
  const types = [schema.type].flat();
  if (types.includes('null')) return null;
  switch (types[0]) {
    case 'object': {
      const properties = isObject(schema.properties) ? schema.properties : {};
      return Object.fromEntries(
        Object.entries(properties).map(([k, s]) => [k, isObject(s) ? minimalValue(s, root) : null]),
      );
    }
    case 'array': {
      const items = isObject(schema.items) ? schema.items : {};
      return Array.from({ length: limit(schema, 'minItems') }, () => minimalValue(items, root));
    }
    case 'string':
      return 'x'.repeat(limit(schema, 'minLength'));
    case 'integer':
    case 'number':
      return Math.max(0, limit(schema, 'minimum'));
    case 'boolean':
      return false;
    default:
      return null;
  }
}

/** A `#/$defs/name`-style pointer into the root schema. */
function resolve(ref: string, root: Json): Json {
  let node: unknown = root;
  for (const key of ref.replace(/^#\/?/, '').split('/').filter(Boolean)) node = isObject(node) ? node[key] : undefined;
  return isObject(node) ? node : {};
}

function limit(schema: Json, key: string): number {
  if (typeof schema[key] === 'number') return schema[key];
  const described =
    typeof schema.description === 'string' ? new RegExp(`${key}: (-?\\d+)`).exec(schema.description) : null;
  return described ? Number(described[1]) : 0;
}

/**
 * `value` with each object's keys in the order its schema lists them (others after), as a model writes a
 * record: token by token, in the schema's order. Follows `$ref`s, arrays' `items` and nullable `anyOf`s.
 */
export function inSchemaOrder(value: unknown, schema: Json, root: Json = schema): unknown {
  if (typeof schema.$ref === 'string') return inSchemaOrder(value, resolve(schema.$ref, root), root);
  const options = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(options)) {
    const shaped = options.filter(isObject).find((v) => v.type === (Array.isArray(value) ? 'array' : 'object'));
    return shaped ? inSchemaOrder(value, shaped, root) : value;
  }
  if (Array.isArray(value)) {
    const items = isObject(schema.items) ? schema.items : {};
    return value.map((v) => inSchemaOrder(v, items, root));
  }
  if (!isObject(value) || !isObject(schema.properties)) return value;
  const properties = schema.properties;
  const keys = [
    ...Object.keys(properties).filter((k) => k in value),
    ...Object.keys(value).filter((k) => !(k in properties)),
  ];
  return Object.fromEntries(
    keys.map((k) => [k, isObject(properties[k]) ? inSchemaOrder(value[k], properties[k], root) : value[k]]),
  );
}
