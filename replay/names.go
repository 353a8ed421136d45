package replay

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
)

// headers decodes a name -> string map, canonicalizing names.
func headers(raw json.RawMessage, path string, response bool) (map[string]string, error) {
	var obj map[string]json.RawMessage
	if kind(raw) != '{' || json.Unmarshal(raw, &obj) != nil {
		return nil, &FixtureError{Path: path, Expected: "an object mapping header names to strings"}
	}
	out := make(map[string]string, len(obj))
	for name, v := range obj {
		if !validToken(name) {
			return nil, &FixtureError{Path: path + "." + name, Expected: "a valid header name"}
		}
		c := http.CanonicalHeaderKey(name)
		if _, dup := out[c]; dup {
			return nil, &FixtureError{Path: path + "." + name, Expected: "each header name once (names are case-insensitive)"}
		}
		if response && (c == "Content-Length" || c == "Transfer-Encoding") {
			return nil, &FixtureError{Path: path + "." + name, Expected: "no " + c + " header (replay sets it from the body)"}
		}
		var s string
		if json.Unmarshal(v, &s) != nil || strings.ContainsAny(s, "\r\n\x00") {
			return nil, &FixtureError{Path: path + "." + name, Expected: "a single-line string value"}
		}
		out[c] = s
	}
	return out, nil
}

func allowHosts(raw json.RawMessage, path string) ([]string, error) {
	var list []json.RawMessage
	if kind(raw) != '[' || json.Unmarshal(raw, &list) != nil {
		return nil, &FixtureError{Path: path, Expected: "a list of host names"}
	}
	seen := map[string]bool{}
	hosts := []string{}
	for i, item := range list {
		var h string
		p := fmt.Sprintf("%s[%d]", path, i)
		if json.Unmarshal(item, &h) != nil {
			return nil, &FixtureError{Path: p, Expected: "a host name string"}
		}
		u, err := url.Parse("//" + h)
		if err != nil || h == "" || u.Host != h || u.Path != "" || u.User != nil || u.RawQuery != "" || u.Hostname() == "" ||
			strings.ContainsAny(h, "*/") || strings.HasPrefix(h, ".") {
			return nil, &FixtureError{Path: p, Expected: "an exact host name, optionally with :port (no scheme, path or wildcard), got " + strconv.Quote(h)}
		}
		h = strings.ToLower(h)
		if !seen[h] {
			seen[h] = true
			hosts = append(hosts, h)
		}
	}
	sort.Strings(hosts)
	return hosts, nil
}

// kind is the first non-space byte of raw, 0 if there is none.
func kind(raw []byte) byte {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return 0
	}
	return raw[0]
}

func validToken(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r <= ' ' || r >= 0x7f || strings.ContainsRune("\"(),/:;<=>?@[\\]{}", r) {
			return false
		}
	}
	return true
}

// normalHost lowers the host and drops the scheme's default port.
func normalHost(scheme, host string) string {
	host = strings.ToLower(host)
	if (scheme == "http" && strings.HasSuffix(host, ":80")) || (scheme == "https" && strings.HasSuffix(host, ":443")) {
		host = host[:strings.LastIndexByte(host, ':')]
	}
	return host
}

func escapedPath(u *url.URL) string {
	if p := u.EscapedPath(); p != "" {
		return p
	}
	return "/"
}
