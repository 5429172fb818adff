// Vault's AWS auth method (builtin/credential/aws of the module go.mod pins), unchanged, served as an
// external plugin for OpenBao's server: scripts/real-server.sh builds this and registers it as `aws`.
package main

import (
	"context"
	"log"

	awsauth "github.com/hashicorp/vault/builtin/credential/aws"
	"github.com/hashicorp/vault/sdk/helper/automatedrotationutil"
	"github.com/hashicorp/vault/sdk/logical"
	"github.com/hashicorp/vault/sdk/plugin"
	"github.com/hashicorp/vault/sdk/rotation"
)

// communityRotation answers the two rotation-manager calls as Vault's community edition does
// (vault/rotation_stubs_oss.go: deregistering succeeds, registering is unsupported). The method deregisters
// on every config/client write without rotation fields, and OpenBao's server does not implement the call
// (gRPC Unimplemented), which would refuse every such write.
type communityRotation struct{ logical.SystemView }

func (communityRotation) DeregisterRotationJob(context.Context, *rotation.RotationJobDeregisterRequest) error {
	return nil
}

func (communityRotation) RegisterRotationJob(context.Context, *rotation.RotationJobConfigureRequest) (string, error) {
	return "", automatedrotationutil.ErrRotationManagerUnsupported
}

func factory(ctx context.Context, conf *logical.BackendConfig) (logical.Backend, error) {
	conf.System = communityRotation{conf.System}
	return awsauth.Factory(ctx, conf)
}

func main() {
	if err := plugin.ServeMultiplex(&plugin.ServeOpts{BackendFactoryFunc: factory}); err != nil {
		log.Fatal(err)
	}
}
