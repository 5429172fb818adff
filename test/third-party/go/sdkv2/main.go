// An application on an instance using aws-sdk-go-v2 against doppel's fake cloud: config's default chain takes
// the instance role's credentials from IMDS (AWS_EC2_METADATA_SERVICE_ENDPOINT), feature/ec2/imds reads the
// region and the identity document, and the sts, ec2 and iam clients call the fake cloud under
// /_doppel/cloud/. Over TLS the SDK trusts AWS_CA_BUNDLE itself. Prints one JSON object.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/feature/ec2/imds"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	ec2types "github.com/aws/aws-sdk-go-v2/service/ec2/types"
	"github.com/aws/aws-sdk-go-v2/service/iam"
	"github.com/aws/aws-sdk-go-v2/service/sts"
	"github.com/aws/smithy-go"
)

func main() {
	ctx := context.Background()
	cloud := os.Getenv("VAULT_ADDR") + "/_doppel/cloud"
	instanceID := os.Getenv("INSTANCE_ID")
	result := map[string]any{}

	cfg, err := config.LoadDefaultConfig(ctx)
	check(err)
	metadata := imds.NewFromConfig(cfg)
	region, err := metadata.GetRegion(ctx, &imds.GetRegionInput{})
	check(err)
	cfg.Region = region.Region
	document, err := metadata.GetInstanceIdentityDocument(ctx, &imds.GetInstanceIdentityDocumentInput{})
	check(err)
	creds, err := cfg.Credentials.Retrieve(ctx)
	check(err)
	result["region"] = cfg.Region
	result["document"] = map[string]any{"instance_id": document.InstanceID, "account_id": document.AccountID, "image_id": document.ImageID}
	result["credentials_source"] = creds.Source
	result["can_expire"] = creds.CanExpire

	stsClient := sts.NewFromConfig(cfg, func(o *sts.Options) { o.BaseEndpoint = aws.String(cloud + "/sts") })
	caller, err := stsClient.GetCallerIdentity(ctx, &sts.GetCallerIdentityInput{})
	check(err)
	result["caller_arn"] = *caller.Arn
	assumed, err := stsClient.AssumeRole(ctx, &sts.AssumeRoleInput{RoleArn: aws.String(os.Getenv("OTHER_ROLE_ARN")), RoleSessionName: aws.String("go-sdk-v2"), DurationSeconds: aws.Int32(900)})
	check(err)
	result["assumed_arn"] = *assumed.AssumedRoleUser.Arn
	asOther := sts.NewFromConfig(cfg, func(o *sts.Options) {
		o.BaseEndpoint = aws.String(cloud + "/sts")
		o.Credentials = credentials.NewStaticCredentialsProvider(*assumed.Credentials.AccessKeyId, *assumed.Credentials.SecretAccessKey, *assumed.Credentials.SessionToken)
	})
	other, err := asOther.GetCallerIdentity(ctx, &sts.GetCallerIdentityInput{})
	check(err)
	result["assumed_caller_arn"] = *other.Arn
	result["bad_role_session_name"] = errorCode(asOther.AssumeRole(ctx, &sts.AssumeRoleInput{RoleArn: assumed.AssumedRoleUser.Arn, RoleSessionName: aws.String("no spaces")}))

	ec2Client := ec2.NewFromConfig(cfg, func(o *ec2.Options) { o.BaseEndpoint = aws.String(cloud + "/ec2") })
	described, err := ec2Client.DescribeInstances(ctx, &ec2.DescribeInstancesInput{InstanceIds: []string{instanceID}})
	check(err)
	instance := described.Reservations[0].Instances[0]
	result["instance"] = map[string]any{"id": *instance.InstanceId, "state": string(instance.State.Name), "profile_arn": *instance.IamInstanceProfile.Arn, "image_id": *instance.ImageId}
	var paged []string
	pages := ec2.NewDescribeInstancesPaginator(ec2Client, &ec2.DescribeInstancesInput{Filters: []ec2types.Filter{{Name: aws.String("instance-id"), Values: []string{instanceID}}}, MaxResults: aws.Int32(5)})
	for pages.HasMorePages() {
		page, err := pages.NextPage(ctx)
		check(err)
		for _, reservation := range page.Reservations {
			for _, item := range reservation.Instances {
				paged = append(paged, *item.InstanceId)
			}
		}
	}
	result["paginated_ids"] = paged
	result["missing_instance"] = errorCode(ec2Client.DescribeInstances(ctx, &ec2.DescribeInstancesInput{InstanceIds: []string{"i-0123456789abcdef0"}}))

	iamClient := iam.NewFromConfig(cfg, func(o *iam.Options) { o.BaseEndpoint = aws.String(cloud + "/iam") })
	user, err := iamClient.GetUser(ctx, &iam.GetUserInput{UserName: aws.String(os.Getenv("USER_NAME"))})
	check(err)
	result["user_arn"] = *user.User.Arn
	profileName := os.Getenv("PROFILE_NAME")
	role, err := iamClient.GetRole(ctx, &iam.GetRoleInput{RoleName: aws.String(profileName)})
	check(err)
	result["role_arn"] = *role.Role.Arn
	profile, err := iamClient.GetInstanceProfile(ctx, &iam.GetInstanceProfileInput{InstanceProfileName: aws.String(profileName)})
	check(err)
	var roles []string
	for _, r := range profile.InstanceProfile.Roles {
		roles = append(roles, *r.RoleName)
	}
	result["profile_roles"] = roles
	result["missing_role"] = errorCode(iamClient.GetRole(ctx, &iam.GetRoleInput{RoleName: aws.String("no-such-role")}))

	out, err := json.Marshal(result)
	check(err)
	fmt.Println(string(out))
}

// errorCode is the API error's code, as an application branches on it.
func errorCode[T any](_ T, err error) string {
	var apiError smithy.APIError
	if errors.As(err, &apiError) {
		return apiError.ErrorCode()
	}
	if err != nil {
		return err.Error()
	}
	return "no error"
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
