// Package http restates Vault 1.21.4's sys/init request type (http/sys_init.go InitRequest) under the package
// name Vault gives it, so that Go's decoder names it as Vault's does (`http.InitRequest`); Vault's own
// package is not importable without building all of Vault.
package http

type InitRequest struct {
	SecretShares      int      `json:"secret_shares"`
	SecretThreshold   int      `json:"secret_threshold"`
	StoredShares      int      `json:"stored_shares"`
	PGPKeys           []string `json:"pgp_keys"`
	RecoveryShares    int      `json:"recovery_shares"`
	RecoveryThreshold int      `json:"recovery_threshold"`
	RecoveryPGPKeys   []string `json:"recovery_pgp_keys"`
	RootTokenPGPKey   string   `json:"root_token_pgp_key"`
}
