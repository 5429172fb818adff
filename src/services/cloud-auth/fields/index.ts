/**
 * Field types of the real service's framework (docs/reference/cloud-auth.md §1.7), converted the way it converts them:
 * weakly typed, with its exact error texts. One file per field type; `Fields` converts a request by schema.
 */
export { FieldError } from './field-error.ts'
export { toBoolField, toIntField, toStringField } from './scalar-fields.ts'
export { goDurationSeconds, toDurationField } from './duration-field.ts'
export { toCommaListField, toKvPairsField, toStringListField } from './list-fields.ts'
export { canonicalHeaderKey, toHeaderField, type HeaderMap } from './header-field.ts'
export { Fields, unknownFields, type FieldSchema, type FieldType } from './request-fields.ts'
