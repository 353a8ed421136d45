package suite

import (
	"strconv"
)

// child appends an object key to a JSON path: ".key" when the key is an
// identifier ([A-Za-z_][A-Za-z0-9_]*), else `["key"]`.
func child(path, key string) string {
	if isIdent(key) {
		return path + "." + key
	}
	return path + "[" + strconv.Quote(key) + "]"
}

// isIdent reports whether s matches [A-Za-z_][A-Za-z0-9_]*, byte by byte
// (a path is built for every key of every question: a regexp match each
// was a tenth of loading a suite).
func isIdent(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		letter := c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
		if !letter && (i == 0 || c < '0' || c > '9') {
			return false
		}
	}
	return s != ""
}

// Index appends an array index to a JSON path.
func Index(path string, i int) string { return path + "[" + strconv.Itoa(i) + "]" }
