export { ArgumentValidator, assertObjectRootSchema, assertValidSchema, assertWellFormedSchema } from './argument-validator.js';
export type { ArgumentValidationResult, ArgumentValidatorOptions } from './argument-validator.js';
export { dtoToJsonSchema } from './dto-schema.factory.js';
export type { DtoJsonSchema } from './dto-schema.factory.js';
export { toDtoInstance, validateDto } from './dto-transform.util.js';
export { getMcpFieldOptions, getMcpObjectOptions, McpField, McpObject } from './mcp-field.decorator.js';
export type { McpFieldOptions, McpObjectOptions } from './mcp-field.decorator.js';
export { composeObjectSchema, schemaForDesignType } from './type-schema.util.js';
export type { ComposeObjectSchemaOptions, DesignTypeSchemaOptions, NamedParameterSchema } from './type-schema.util.js';
export { describeIssues, isStandardSchema, standardJsonSchema, StandardValidator } from './standard-schema.js';
export type {
  McpSchemaInput,
  McpSchemaOutput,
  McpStandardSchema,
  StandardJSONSchemaV1,
  StandardSchemaV1,
  StandardTypedV1,
  StandardValidation,
  StandardValidatorOptions,
} from './standard-schema.js';
