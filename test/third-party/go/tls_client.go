// A Go client of `doppel serve --tls --profile vault`, trusting the CA as Vault's Go client does: the PEM file
// VAULT_CACERT names, added to a certificate pool that crypto/tls verifies the server against. Standard
// library only (no module downloads). Prints one JSON object for the test to compare.
package main

import (
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
)

func main() {
	addr := os.Getenv("VAULT_ADDR")
	pem, err := os.ReadFile(os.Getenv("VAULT_CACERT"))
	if err != nil {
		fail(err)
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(pem) {
		fail(errors.New("VAULT_CACERT holds no certificate"))
	}
	trusted := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}}}

	write := call(trusted, "POST", addr+"/v1/auth/aws/role/go-role", `{"auth_type":"ec2","bound_ami_id":"ami-0go"}`)
	list := call(trusted, "LIST", addr+"/v1/auth/aws/roles", "")
	var listing struct {
		Data struct {
			Keys []string `json:"keys"`
		} `json:"data"`
	}
	if err := json.Unmarshal([]byte(list.body), &listing); err != nil {
		fail(fmt.Errorf("LIST answered %d %q: %w", list.status, list.body, err))
	}

	// Without the CA, the system pool does not know doppel's: the handshake must fail.
	untrusted := "none"
	if _, err := http.Get(addr + "/v1/sys/health"); err != nil {
		var unknown x509.UnknownAuthorityError
		if errors.As(err, &unknown) {
			untrusted = "UnknownAuthorityError"
		} else {
			untrusted = err.Error()
		}
	}

	out, _ := json.Marshal(map[string]any{"write": write.status, "list": list.status, "roles": listing.Data.Keys, "tls": list.tls, "untrusted": untrusted})
	fmt.Println(string(out))
}

type answer struct {
	status int
	body   string
	tls    bool
}

func call(client *http.Client, method, url, body string) answer {
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		fail(err)
	}
	req.Header.Set("X-Vault-Token", "root")
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := client.Do(req)
	if err != nil {
		fail(err)
	}
	defer res.Body.Close()
	text, _ := io.ReadAll(res.Body)
	return answer{status: res.StatusCode, body: string(text), tls: res.TLS != nil && len(res.TLS.PeerCertificates) > 0}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, err)
	os.Exit(1)
}
