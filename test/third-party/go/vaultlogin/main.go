// An application on an instance logging in with Vault's own Go client and its AWS login helper
// (github.com/hashicorp/vault/api/auth/aws), unmodified, against `doppel serve --profile vault`: the ec2 login
// with each document the helper offers (pkcs7, identity + signature, rsa2048), read from the instance's IMDS
// through aws-sdk-go v1 (AWS_EC2_METADATA_SERVICE_ENDPOINT), and the iam login with the instance role's
// credentials from the same IMDS, handed to the helper in AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and
// AWS_SESSION_TOKEN: the helper's own chain asks the metadata service only at 169.254.169.254, its default
// address, which a test on loopback cannot serve. The client reads VAULT_ADDR and VAULT_CACERT itself.
// Then the root token creates tokens through the client's token API. Prints one JSON object.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/aws/aws-sdk-go/aws/credentials/ec2rolecreds"
	"github.com/aws/aws-sdk-go/aws/session"
	vault "github.com/hashicorp/vault/api"
	awsauth "github.com/hashicorp/vault/api/auth/aws"
)

func main() {
	ctx := context.Background()
	root := newClient()
	root.SetToken("root")
	roleArn := os.Getenv("ROLE_ARN")
	write(root, "auth/aws/role/go-ec2", map[string]any{"auth_type": "ec2", "bound_iam_role_arn": roleArn, "token_policies": "reader"})
	write(root, "auth/aws/role/go-iam", map[string]any{"auth_type": "iam", "bound_iam_principal_arn": roleArn, "token_policies": "reader"})

	result := map[string]any{}
	signatures := map[string]awsauth.LoginOption{
		"pkcs7":    awsauth.WithPKCS7Signature(),
		"identity": awsauth.WithIdentitySignature(),
		"rsa2048":  awsauth.WithRSA2048Signature(),
	}
	// One instance, one nonce: a later login must bring the nonce the first one set.
	for _, name := range []string{"pkcs7", "identity", "rsa2048"} {
		result["ec2_"+name] = login(ctx, awsauth.WithEC2Auth(), awsauth.WithRole("go-ec2"), signatures[name], awsauth.WithNonce("go-client-nonce"))
	}
	result["ec2_other_nonce"] = login(ctx, awsauth.WithEC2Auth(), awsauth.WithRole("go-ec2"), awsauth.WithNonce("another-nonce"))
	roleCredentials(ctx)
	result["iam"] = login(ctx, awsauth.WithIAMAuth(), awsauth.WithRole("go-iam"))
	result["iam_eu_west_1"] = login(ctx, awsauth.WithIAMAuth(), awsauth.WithRole("go-iam"), awsauth.WithRegion("eu-west-1"))

	// The iam login's token, looked up and renewed through the same client.
	client := newClient()
	auth, err := awsauth.NewAWSAuth(awsauth.WithIAMAuth(), awsauth.WithRole("go-iam"))
	check(err)
	secret, err := client.Auth().Login(ctx, auth)
	check(err)
	self, err := client.Auth().Token().LookupSelf()
	check(err)
	policies, err := self.TokenPolicies()
	check(err)
	renewed, err := client.Auth().Token().RenewSelf(7200)
	check(err)
	result["token"] = map[string]any{
		"lookup_policies": policies,
		"renewed_same":    renewed.Auth.ClientToken == secret.Auth.ClientToken,
		"lease_duration":  renewed.Auth.LeaseDuration,
		"tls":             client.Address()[:5] == "https",
	}
	result["created"] = createdTokens(root)
	out, err := json.Marshal(result)
	check(err)
	fmt.Println(string(out))
}

// createdTokens has the root token create a child and an orphan through the client's token API, reads the
// child as itself, asks its capabilities (as itself, by token and by accessor), revokes it, and returns what
// each step saw.
func createdTokens(root *vault.Client) map[string]any {
	child, err := root.Auth().Token().Create(&vault.TokenCreateRequest{Policies: []string{"reader"}, TTL: "1h", DisplayName: "go", Metadata: map[string]string{"app": "go"}})
	check(err)
	as := newClient()
	as.SetToken(child.Auth.ClientToken)
	self, err := as.Auth().Token().LookupSelf()
	check(err)
	orphan, err := root.Auth().Token().CreateOrphan(&vault.TokenCreateRequest{Policies: []string{"reader"}, TTL: "10m"})
	check(err)
	_, denied := as.Auth().Token().Create(&vault.TokenCreateRequest{})
	selfCapabilities, err := as.Sys().CapabilitiesSelf("auth/token/lookup-self")
	check(err)
	childCapabilities, err := root.Sys().Capabilities(child.Auth.ClientToken, "cubbyhole/x")
	check(err)
	accessorCapabilities, err := root.Sys().CapabilitiesAccessor(child.Auth.Accessor, "auth/cloud/role/x")
	check(err)
	check(root.Auth().Token().RevokeTree(child.Auth.ClientToken))
	_, gone := as.Auth().Token().LookupSelf()
	return map[string]any{
		"policies":       child.Auth.Policies,
		"lease_duration": child.Auth.LeaseDuration,
		"orphan":         child.Auth.Orphan,
		"warnings":       child.Warnings,
		"display_name":   self.Data["display_name"],
		"meta":           self.Data["meta"],
		"orphan_orphan":  orphan.Auth.Orphan,
		"denied":         denied != nil && strings.Contains(denied.Error(), "Code: 403"),
		"gone":           gone != nil && strings.Contains(gone.Error(), "permission denied"),
		"capabilities":   []any{selfCapabilities, childCapabilities, accessorCapabilities},
	}
}

// roleCredentials reads the instance role's credentials as aws-sdk-go v1 does on an instance (its session
// takes the metadata endpoint from the environment) and puts them where the login helper reads them.
func roleCredentials(ctx context.Context) {
	sess, err := session.NewSession()
	check(err)
	value, err := ec2rolecreds.NewCredentials(sess).GetWithContext(ctx)
	check(err)
	check(os.Setenv("AWS_ACCESS_KEY_ID", value.AccessKeyID))
	check(os.Setenv("AWS_SECRET_ACCESS_KEY", value.SecretAccessKey))
	check(os.Setenv("AWS_SESSION_TOKEN", value.SessionToken))
}

// login logs in with a fresh client and returns the token's policies and metadata, or the error's text.
func login(ctx context.Context, opts ...awsauth.LoginOption) map[string]any {
	auth, err := awsauth.NewAWSAuth(opts...)
	check(err)
	secret, err := newClient().Auth().Login(ctx, auth)
	if err != nil {
		return map[string]any{"error": err.Error()}
	}
	return map[string]any{"policies": secret.Auth.Policies, "metadata": secret.Auth.Metadata}
}

func newClient() *vault.Client {
	client, err := vault.NewClient(vault.DefaultConfig())
	check(err)
	return client
}

func write(client *vault.Client, path string, data map[string]any) {
	_, err := client.Logical().Write(path, data)
	check(err)
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
