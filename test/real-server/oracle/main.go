// Vault 1.21's own code answering what doppel's vault profile emulates, for the tests beside it to compare
// doppel against, one case a line on stdin and one answer a line on stdout:
//
//   - {"body": base64, "maxRequestSize": n, "limits": {...}}: a request body as Vault's HTTP layer reads it
//     (test/real-server/listener-json.test.ts): the listener's check (wrapJSONLimitsHandler in Vault's
//     http/util.go, which calls the SDK's jsonutil.VerifyMaxDepthStreaming), then a write's JSON decode
//     (http/logical.go, parseJSONRequest), each with the SDK's own code and the status adjustment Vault
//     applies. The HTTP glue is restated here (Vault's http package is not importable without building all
//     of Vault); the limits and the size limit come with each case, so that a test can reach them with small
//     bodies. Answer: {"status": n, "error": "..."} or {"status": 200, "data": {...}}, numbers as strings.
//   - {"schedule": "..."}: a config/client rotation_schedule as the SDK's rotation scheduler parses it
//     (test/real-server/rotation-schedule.test.ts). Answer: {"error": "..."}, empty when it parses.
//   - {"field": {"type": "...", "value": "<JSON text>"}}: a request field converted by the SDK's framework
//     (FieldData.Validate, then GetOk), the value decoded as the HTTP layer decodes a body (UseNumber)
//     (test/real-server/field-conversion.test.ts). Answer: {"error": "..."} or {"value": ...}.
//   - {"init": base64}: a sys/init write's body as Vault decodes it into its InitRequest and checks it on an
//     initialised dev server with a Shamir seal (http/sys_init.go: parseJSONRequest, validateInitParameters;
//     vault/init.go Initialize: the PGP key count, SealConfig.Validate, then ErrAlreadyInit), those checks
//     restated here (the vault package is not importable), without Validate's parsing of each PGP key
//     (doppel parses no OpenPGP; the tests send no key that would decode) (test/real-server/sys-init.test.ts).
//     Answer: {"status": 400, "error": "..."}.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	nethttp "net/http"
	"os"
	"strings"

	"github.com/hashicorp/vault/sdk/framework"
	"github.com/hashicorp/vault/sdk/helper/jsonutil"
	"github.com/hashicorp/vault/sdk/logical"
	"github.com/hashicorp/vault/sdk/rotation"

	"doppel.test/real-server/oracle/http"
)

type request struct {
	Schedule       *string             `json:"schedule"`
	Init           []byte              `json:"init"`
	Field          *fieldCase          `json:"field"`
	Body           []byte              `json:"body"`
	MaxRequestSize int64               `json:"maxRequestSize"`
	Limits         jsonutil.JSONLimits `json:"limits"`
}

type answer struct {
	Status int            `json:"status"`
	Error  string         `json:"error,omitempty"`
	Data   map[string]any `json:"data,omitempty"`
}

func main() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 0, 1<<20), 1<<30)
	out := json.NewEncoder(os.Stdout)
	for in.Scan() {
		var req request
		if err := json.Unmarshal(in.Bytes(), &req); err != nil {
			fmt.Fprintln(os.Stderr, "jsonoracle: bad case:", err)
			os.Exit(2)
		}
		var answered any
		if req.Schedule != nil {
			answered = parseSchedule(*req.Schedule)
		} else if req.Field != nil {
			answered = convertField(*req.Field)
		} else if req.Init != nil {
			answered = initialize(req.Init)
		} else {
			answered = read(req)
		}
		if err := out.Encode(answered); err != nil {
			os.Exit(1)
		}
	}
}

func read(req request) answer {
	// wrapMaxRequestSizeHandler, then wrapJSONLimitsHandler's jsonLimitsValidation and resetBodyIfRead.
	body := nethttp.MaxBytesReader(nil, io.NopCloser(bytes.NewReader(req.Body)), req.MaxRequestSize)
	seen := &bytes.Buffer{}
	if _, err := jsonutil.VerifyMaxDepthStreaming(io.TeeReader(body, seen), req.Limits, &req.MaxRequestSize); err != nil {
		status := nethttp.StatusInternalServerError
		logical.AdjustErrorStatusCode(&status, err)
		return answer{Status: status, Error: err.Error()}
	}
	// buildLogicalRequestNoAuth for a write whose body is not a form.
	var data map[string]any
	err := jsonutil.DecodeJSONFromReader(io.MultiReader(seen, body), &data)
	if err != nil && err != io.EOF {
		err = fmt.Errorf("error parsing JSON: %w", fmt.Errorf("failed to parse JSON input: %w", err))
		status := nethttp.StatusBadRequest
		logical.AdjustErrorStatusCode(&status, err)
		return answer{Status: status, Error: err.Error()}
	}
	return answer{Status: nethttp.StatusOK, Data: numbersAsText(data)}
}

// numbersAsText writes each json.Number as its text, as doppel keeps numbers.
func numbersAsText(data map[string]any) map[string]any {
	for key, value := range data {
		data[key] = numberAsText(value)
	}
	return data
}

func numberAsText(value any) any {
	switch v := value.(type) {
	case json.Number:
		return v.String()
	case map[string]any:
		return numbersAsText(v)
	case []any:
		for i, item := range v {
			v[i] = numberAsText(item)
		}
	}
	return value
}

type scheduleAnswer struct {
	Error string `json:"error"`
}

// parseSchedule is what ParseAutomatedRotationFields asks of a non-empty rotation_schedule. A panic (a time
// zone prefix without a space) is answered as such.
func parseSchedule(spec string) (answer scheduleAnswer) {
	defer func() {
		if recover() != nil {
			answer = scheduleAnswer{Error: "panics"}
		}
	}()
	if _, err := rotation.DefaultScheduler.Parse(spec); err != nil {
		return scheduleAnswer{Error: err.Error()}
	}
	return scheduleAnswer{}
}

// initialize answers a sys/init write on an initialised dev server: handleSysInitPut's steps, its errors as
// respondError writes them. The seal is Shamir, which supports no recovery keys.
func initialize(body []byte) answer {
	var req http.InitRequest
	if err := jsonutil.DecodeJSONFromReader(bytes.NewReader(body), &req); err != nil && err != io.EOF {
		return answer{Status: 400, Error: fmt.Sprintf("failed to parse JSON input: %s", err)}
	}
	var recoveryFlags []string
	if req.RecoveryShares != 0 {
		recoveryFlags = append(recoveryFlags, "recovery_shares")
	}
	if req.RecoveryThreshold != 0 {
		recoveryFlags = append(recoveryFlags, "recovery_threshold")
	}
	if len(req.RecoveryPGPKeys) != 0 {
		recoveryFlags = append(recoveryFlags, "recovery_pgp_keys")
	}
	if len(recoveryFlags) > 0 {
		return answer{Status: 400, Error: fmt.Sprintf("parameters %s not applicable to seal type shamir", strings.Join(recoveryFlags, ","))}
	}
	if len(req.PGPKeys) > 0 && len(req.PGPKeys) != req.SecretShares {
		return answer{Status: 400, Error: "incorrect number of PGP keys"}
	}
	if err := validateShamir(req.SecretShares, req.SecretThreshold); err != "" {
		return answer{Status: 400, Error: "invalid seal configuration: " + err}
	}
	return answer{Status: 400, Error: "Vault is already initialized"}
}

// validateShamir is SealConfig.Validate for the shares and threshold (stored shares are forced to 1 first).
func validateShamir(shares, threshold int) string {
	switch {
	case shares < 1:
		return "shares must be at least one"
	case threshold < 1:
		return "threshold must be at least one"
	case shares > 1 && threshold == 1:
		return "threshold must be greater than one for multiple shares"
	case shares > 255:
		return "shares must be less than 256"
	case threshold > 255:
		return "threshold must be less than 256"
	case threshold > shares:
		return "threshold cannot be larger than shares"
	}
	return ""
}

type fieldCase struct {
	Type  string `json:"type"`
	Value string `json:"value"`
}

type fieldAnswer struct {
	Error string `json:"error,omitempty"`
	Value any    `json:"value"`
}

var fieldTypes = map[string]framework.FieldType{
	"string":    framework.TypeString,
	"bool":      framework.TypeBool,
	"int":       framework.TypeInt,
	"duration":  framework.TypeDurationSecond,
	"commaList": framework.TypeCommaStringSlice,
	"header":    framework.TypeHeader,
}

// convertField is what a route's FieldData does with one field: Validate names the field in its error.
func convertField(c fieldCase) fieldAnswer {
	var raw map[string]any
	if err := jsonutil.DecodeJSON([]byte(`{"f":`+c.Value+`}`), &raw); err != nil {
		return fieldAnswer{Error: "bad case: " + err.Error()}
	}
	data := &framework.FieldData{Raw: raw, Schema: map[string]*framework.FieldSchema{"f": {Type: fieldTypes[c.Type]}}}
	if err := data.Validate(); err != nil {
		return fieldAnswer{Error: err.Error(), Value: nil}
	}
	value, _, _ := data.GetOkErr("f")
	if d, ok := value.(interface{ Seconds() float64 }); ok {
		value = d.Seconds()
	}
	return fieldAnswer{Value: value}
}
