package main

import (
	"bytes"
	"strings"
	"testing"
)

func TestRun_Refusals(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		env  map[string]string
		code int
		want string
	}{
		{"missing default database", nil, map[string]string{"XDG_DATA_HOME": t.TempDir(), "DATABASE_URL": ""}, 1,
			"does not exist yet"},
		{"unsafe mount path", []string{"--mount-path", "evaluations"}, nil, 1, "must start with /"},
		{"unsupported url", []string{"--database-url", "mysql://x"}, nil, 1, "unsupported database url"},
		{"missing sqlite file", []string{"--database-url", "sqlite:" + t.TempDir() + "/none.sqlite3"}, nil, 1, "open database"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for k, v := range tc.env {
				t.Setenv(k, v)
			}
			var out, errb bytes.Buffer
			code := run(append(tc.args, "--listen", "127.0.0.1:0"), &out, &errb)
			if code != tc.code || !strings.Contains(errb.String(), tc.want) {
				t.Errorf("exit %d, stderr %q; want exit %d and %q", code, errb.String(), tc.code, tc.want)
			}
		})
	}
}
