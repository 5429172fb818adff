export { handleLookupSelf, requestToken } from './lookup-self.ts'
export { tokenStore, TokenStore } from './token-store.ts'
export type { EntityAlias, IssuedToken } from './token-store.ts'
export { addressIsAllowed } from './bound-cidrs.ts'
