// A JSON request body as Vault 1.21's HTTP layer reads it, for test/real-server/listener-json.test.ts to
// compare doppel against: the listener's check (wrapJSONLimitsHandler in Vault's http/util.go, which calls
// the SDK's jsonutil.VerifyMaxDepthStreaming) and then a write's JSON decode (http/logical.go,
// parseJSONRequest), each with the SDK's own code and the status adjustment Vault applies. The HTTP glue is
// restated here (Vault's http package is not importable without building all of Vault); the limits and
// the size limit come with each case, so that a test can reach them with small bodies.
//
// Reads one JSON case a line on stdin ({"body": base64, "maxRequestSize": n, "limits": {...}}) and writes
// one answer a line: {"status": n, "error": "..."} or {"status": 200, "data": {...}}, numbers as strings.
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
)

type request struct {
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
		if err := out.Encode(read(req)); err != nil {
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
