package replay

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/agentevals-go/agentevals/bounds"
)

// Fixtures are one question's replay declarations, validated and with every
// response body snapshotted. They are immutable once loaded and may be
// shared by any number of sessions.
type Fixtures struct {
	// AllowHosts are the exact hosts (lower case, optionally host:port) that
	// undeclared requests may reach for real.
	AllowHosts   []string
	Interactions []Interaction
}

// Interaction is one declared request and its canned reply.
type Interaction struct {
	Request  Expectation
	Response Reply
}

// Expectation is what a declared request must look like.
type Expectation struct {
	Method string // upper case
	// URL is the normalized scheme://host[:port]/path, without query; the
	// port is omitted when it is the scheme's default.
	URL string
	// Query is the expected query (from the url and the query field); empty
	// means the request must carry no query parameters.
	Query url.Values
	// JSON is the expected body, compact; nil means the body must be empty.
	JSON json.RawMessage
	// Headers are the only headers compared, keyed by canonical name.
	Headers map[string]string

	scheme, host, path string // host is normalized: lower case, no default port
}

// Reply is a declared response.
type Reply struct {
	Status  int
	Headers map[string]string // canonical names
	Body    []byte            // exact bytes sent
	// BodyFile is the resolved path the body was read from; "" for inline json.
	BodyFile string
}

// FixtureError is an invalid fixture declaration. Path is the JSON path of
// the offending value relative to the question, starting with
// "api_interactions", so a caller can prefix the suite file and question.
type FixtureError struct {
	Path     string
	Expected string // what would have been valid
	Err      error  // underlying cause, if any (e.g. a file error)
}

// Error reads "path: want expected[: cause]".
func (e *FixtureError) Error() string {
	msg := e.Path + ": want " + e.Expected
	if e.Err != nil {
		msg += ": " + e.Err.Error()
	}
	return msg
}

// Unwrap returns the underlying cause.
func (e *FixtureError) Unwrap() error { return e.Err }

// allowedMethods are the methods a declaration may expect.
var allowedMethods = map[string]bool{
	http.MethodGet: true, http.MethodHead: true, http.MethodPost: true, http.MethodPut: true,
	http.MethodPatch: true, http.MethodDelete: true, http.MethodOptions: true,
}

const root = "api_interactions"

// Load validates a question's api_interactions value and snapshots its
// response bodies; relative body_file paths resolve against suiteDir. An
// empty or null value means no fixtures: Load returns nil, nil. A
// validation error is a *FixtureError, or, when several interactions are
// invalid, an errors.Join of one *FixtureError per invalid interaction.
func Load(raw json.RawMessage, suiteDir string) (*Fixtures, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	fx := &Fixtures{AllowHosts: []string{}}
	var list json.RawMessage
	switch raw[0] {
	case '[':
		list = raw
	case '{':
		obj, err := object(raw, root, "an object with interactions and allow_hosts, or a list of interactions", "allow_hosts", "interactions")
		if err != nil {
			return nil, err
		}
		if v, ok := obj["allow_hosts"]; ok {
			hosts, err := allowHosts(v, root+".allow_hosts")
			if err != nil {
				return nil, err
			}
			fx.AllowHosts = hosts
		}
		list = obj["interactions"]
		if list == nil {
			list = json.RawMessage("[]")
		}
	default:
		return nil, &FixtureError{Path: root, Expected: "an object with interactions and allow_hosts, or a list of interactions"}
	}
	listPath := root
	if raw[0] == '{' {
		listPath += ".interactions"
	}
	var items []json.RawMessage
	if err := json.Unmarshal(list, &items); err != nil {
		return nil, &FixtureError{Path: listPath, Expected: "a list of interactions"}
	}
	fx.Interactions = make([]Interaction, 0, len(items))
	var errs []error
	for i, item := range items {
		in, err := interaction(item, fmt.Sprintf("%s[%d]", listPath, i), suiteDir)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		fx.Interactions = append(fx.Interactions, in)
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return fx, nil
}

// object decodes raw as a JSON object with only the given keys.
func object(raw json.RawMessage, path, expected string, keys ...string) (map[string]json.RawMessage, error) {
	var obj map[string]json.RawMessage
	if kind(raw) != '{' || json.Unmarshal(raw, &obj) != nil {
		return nil, &FixtureError{Path: path, Expected: expected}
	}
	names := make([]string, 0, len(obj))
	for k := range obj {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		known := false
		for _, want := range keys {
			known = known || k == want
		}
		if !known {
			return nil, &FixtureError{Path: path + "." + k, Expected: "one of the keys " + strings.Join(keys, ", ") + " (unknown key)"}
		}
	}
	return obj, nil
}

func interaction(raw json.RawMessage, path, suiteDir string) (Interaction, error) {
	obj, err := object(raw, path, "an object with expect_request and respond_with", "expect_request", "respond_with")
	if err != nil {
		return Interaction{}, err
	}
	for _, k := range []string{"expect_request", "respond_with"} {
		if _, ok := obj[k]; !ok {
			return Interaction{}, &FixtureError{Path: path + "." + k, Expected: "an object (missing)"}
		}
	}
	req, err := expectation(obj["expect_request"], path+".expect_request")
	if err != nil {
		return Interaction{}, err
	}
	rep, err := reply(obj["respond_with"], path+".respond_with", suiteDir)
	if err != nil {
		return Interaction{}, err
	}
	return Interaction{Request: req, Response: rep}, nil
}

func expectation(raw json.RawMessage, path string) (Expectation, error) {
	obj, err := object(raw, path, "an object with method and url", "method", "url", "query", "json", "headers")
	if err != nil {
		return Expectation{}, err
	}
	var e Expectation
	var method string
	if json.Unmarshal(obj["method"], &method) != nil || !allowedMethods[strings.ToUpper(method)] {
		return e, &FixtureError{Path: path + ".method", Expected: "one of GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS"}
	}
	e.Method = strings.ToUpper(method)
	var rawURL string
	if json.Unmarshal(obj["url"], &rawURL) != nil {
		return e, &FixtureError{Path: path + ".url", Expected: "an absolute http or https URL string"}
	}
	u, err := url.Parse(rawURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Hostname() == "" || u.User != nil || u.Fragment != "" || u.Opaque != "" {
		return e, &FixtureError{Path: path + ".url", Expected: "an absolute http or https URL without credentials or fragment, got " + strconv.Quote(rawURL), Err: err}
	}
	e.scheme, e.host, e.path = u.Scheme, normalHost(u.Scheme, u.Host), escapedPath(u)
	e.URL = e.scheme + "://" + e.host + e.path
	e.Query, err = url.ParseQuery(u.RawQuery)
	if err != nil {
		return e, &FixtureError{Path: path + ".url", Expected: "a valid query string", Err: err}
	}
	if q, ok := obj["query"]; ok {
		if err := addQuery(e.Query, q, path+".query"); err != nil {
			return e, err
		}
	}
	if body, ok := obj["json"]; ok {
		var buf bytes.Buffer
		if err := json.Compact(&buf, body); err != nil {
			return e, &FixtureError{Path: path + ".json", Expected: "a JSON value", Err: err}
		}
		e.JSON = buf.Bytes()
	}
	if h, ok := obj["headers"]; ok {
		if e.Headers, err = headers(h, path+".headers", false); err != nil {
			return e, err
		}
	}
	return e, nil
}

func reply(raw json.RawMessage, path, suiteDir string) (Reply, error) {
	obj, err := object(raw, path, "an object with status, headers and one of json or body_file", "status", "headers", "json", "body_file")
	if err != nil {
		return Reply{}, err
	}
	r := Reply{Status: http.StatusOK, Headers: map[string]string{}}
	if s, ok := obj["status"]; ok {
		const want = "an integer status between 200 and 599 that allows a body (not 204, 205 or 304)"
		n, err := strconv.Atoi(string(bytes.TrimSpace(s)))
		if err != nil || n < 200 || n > 599 || n == 204 || n == 205 || n == 304 {
			return r, &FixtureError{Path: path + ".status", Expected: want}
		}
		r.Status = n
	}
	if h, ok := obj["headers"]; ok {
		if r.Headers, err = headers(h, path+".headers", true); err != nil {
			return r, err
		}
	}
	inline, hasJSON := obj["json"]
	file, hasFile := obj["body_file"]
	switch {
	case hasJSON && hasFile:
		return r, &FixtureError{Path: path, Expected: "exactly one of json or body_file, not both"}
	case !hasJSON && !hasFile:
		return r, &FixtureError{Path: path, Expected: "exactly one of json or body_file (neither given)"}
	case hasJSON:
		var buf bytes.Buffer
		if err := json.Compact(&buf, inline); err != nil {
			return r, &FixtureError{Path: path + ".json", Expected: "a JSON value", Err: err}
		}
		r.Body = buf.Bytes()
	default:
		var name string
		if json.Unmarshal(file, &name) != nil || name == "" {
			return r, &FixtureError{Path: path + ".body_file", Expected: "a non-empty file path string"}
		}
		if !filepath.IsAbs(name) {
			name = filepath.Join(suiteDir, name)
		}
		b, err := bounds.ReadFile(name, bounds.DefaultMaxBytes)
		if err != nil {
			return r, &FixtureError{Path: path + ".body_file", Expected: "a readable file", Err: err}
		}
		if !utf8.Valid(b) {
			return r, &FixtureError{Path: path + ".body_file", Expected: "a UTF-8 file, got invalid UTF-8 in " + name}
		}
		if !json.Valid(b) {
			return r, &FixtureError{Path: path + ".body_file", Expected: "a file holding one JSON document, got invalid JSON in " + name}
		}
		r.Body, r.BodyFile = b, name
	}
	return r, nil
}

// addQuery adds the declared query object's values to q.
func addQuery(q url.Values, raw json.RawMessage, path string) error {
	const want = "an object mapping names to a string, number or boolean, or a list of them"
	var obj map[string]json.RawMessage
	if kind(raw) != '{' || json.Unmarshal(raw, &obj) != nil {
		return &FixtureError{Path: path, Expected: want}
	}
	for name, v := range obj {
		var list []json.RawMessage
		if kind(v) != '[' {
			list = []json.RawMessage{v}
		} else if err := json.Unmarshal(v, &list); err != nil {
			return &FixtureError{Path: path + "." + name, Expected: want}
		}
		for _, item := range list {
			s, ok := scalarText(item)
			if !ok {
				return &FixtureError{Path: path + "." + name, Expected: "a string, number or boolean (or a list of them)"}
			}
			q.Add(name, s)
		}
	}
	return nil
}

// scalarText is a JSON string's value, or a number's or boolean's literal.
func scalarText(raw json.RawMessage) (string, bool) {
	raw = bytes.TrimSpace(raw)
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s, true
	}
	var n json.Number
	if json.Unmarshal(raw, &n) == nil {
		return n.String(), true
	}
	var b bool
	if json.Unmarshal(raw, &b) == nil {
		return strconv.FormatBool(b), true
	}
	return "", false
}
