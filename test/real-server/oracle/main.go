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
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"

	"github.com/hashicorp/vault/sdk/helper/jsonutil"
	"github.com/hashicorp/vault/sdk/logical"
	"github.com/hashicorp/vault/sdk/rotation"
)

type request struct {
	Schedule       *string             `json:"schedule"`
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
	body := http.MaxBytesReader(nil, io.NopCloser(bytes.NewReader(req.Body)), req.MaxRequestSize)
	seen := &bytes.Buffer{}
	if _, err := jsonutil.VerifyMaxDepthStreaming(io.TeeReader(body, seen), req.Limits, &req.MaxRequestSize); err != nil {
		status := http.StatusInternalServerError
		logical.AdjustErrorStatusCode(&status, err)
		return answer{Status: status, Error: err.Error()}
	}
	// buildLogicalRequestNoAuth for a write whose body is not a form.
	var data map[string]any
	err := jsonutil.DecodeJSONFromReader(io.MultiReader(seen, body), &data)
	if err != nil && err != io.EOF {
		err = fmt.Errorf("error parsing JSON: %w", fmt.Errorf("failed to parse JSON input: %w", err))
		status := http.StatusBadRequest
		logical.AdjustErrorStatusCode(&status, err)
		return answer{Status: status, Error: err.Error()}
	}
	return answer{Status: http.StatusOK, Data: numbersAsText(data)}
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
