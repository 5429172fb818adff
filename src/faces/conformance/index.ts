/** The conformance suite against a target, and against Vault in a container. */
export { CONFORMANCE_DIR, runConformance } from './run-conformance.ts'
export { DEFAULT_VAULT_IMAGE, runConformanceInVaultContainer } from './vault-container.ts'
export { startVaultBridge, type VaultBridge, vaultSetupPlan, vaultTeardownPlan } from './vault-bridge.ts'
