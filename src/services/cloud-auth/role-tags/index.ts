export {
  parseRoleTag,
  roleTagPlaintext,
  RoleTagError,
  ROLE_TAG_VERSION,
  signRoleTag,
  verifyRoleTag,
} from './role-tag-codec.ts'
export type { ParsedRoleTag, RoleTagContent } from './role-tag-codec.ts'
