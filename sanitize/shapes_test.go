package sanitize_test

import (
	"testing"

	"github.com/agentevals-go/agentevals/sanitize"
)

// TestText_Shapes holds one table per credential shape: each shape's
// positive cases lose the secret, its negative cases (prose and counts
// that look alike) come back unchanged.
func TestText_Shapes(t *testing.T) {
	for _, shape := range []struct {
		name  string
		cases []shapeCase
	}{
		{"name=scheme token", []shapeCase{
			{"AUTH_HEADER=Bearer abc123def456", "AUTH_HEADER=Bearer [REDACTED]"},
			{"Authorization=Bearer abc", "Authorization=Bearer [REDACTED]"},
			{"export GH=Bearer TOKENVALUE next", "export GH=Bearer [REDACTED] next"},
			{"x=token a1b2c3", "x=token [REDACTED]"},
			{"mode=basic setup", "mode=basic setup"},
			{"AUTH_HEADER=Bearer [REDACTED]", "AUTH_HEADER=Bearer [REDACTED]"},
		}},
		{"PEM private key", []shapeCase{
			{"key:\n-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\nabc+/=\n-----END RSA PRIVATE KEY-----\ndone", "key:\n[REDACTED]\ndone"},
			{"-----BEGIN PRIVATE KEY-----\nMIIE", "[REDACTED]"},
			{`"-----BEGIN OPENSSH PRIVATE KEY-----\nb3Blbn\n-----END OPENSSH PRIVATE KEY-----"`, `"[REDACTED]"`},
			{"-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----", "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----"},
			{"a private key is secret", "a private key is secret"},
		}},
		{"name = value with spaces", []shapeCase{
			{"aws_secret_access_key = wJalrXUtnFEMI/K7MDENG", "aws_secret_access_key = [REDACTED]"},
			{"password\t=\thunter2", "password\t=\t[REDACTED]"},
			{"aws_access_key_id = AKIAABCDEFGHIJKLMNOP", "aws_access_key_id = [REDACTED]"},
			{"region = eu-west-1", "region = eu-west-1"},
			{"max_tokens = 100", "max_tokens = 100"},
		}},
		{"npm token", []shapeCase{
			{"//registry/:_authToken=npm_abcdefghijklmnopqrstuvwxyz0123456789", "//registry/:_authToken=[REDACTED]"},
			{"use npm_abcdefghijklmnopqrstuvwxyz0123456789 here", "use [REDACTED] here"},
			{"run npm_install and npm_config_cache", "run npm_install and npm_config_cache"},
		}},
		{"hugging face token", []shapeCase{
			{"HF hf_abcdefghijklmnopqrstuvwxyzABCDEFGH ok", "HF [REDACTED] ok"},
			{"the hf_hub_download call", "the hf_hub_download call"},
		}},
		{"scheme word in prose", []shapeCase{
			{"want token counts in [0, 2147483647], got -1", "want token counts in [0, 2147483647], got -1"},
			{"send a bearer token.", "send a bearer token."},
			{"token usage: basic auth", "token usage: basic auth"},
			{"sent bearer abc.def", "sent bearer [REDACTED]"},
			{"Token 0123abcd.", "Token [REDACTED]"},
			{"digest averylongrandomlettersonlyvalue", "digest [REDACTED]"},
		}},
	} {
		t.Run(shape.name, func(t *testing.T) { checkShapes(t, shape.cases) })
	}
}

// TestSecretValue_Shapes: whole values of the new shapes are credentials
// whatever their name.
func TestSecretValue_Shapes(t *testing.T) {
	for in, want := range map[string]bool{
		"npm_abcdefghijklmnopqrstuvwxyz0123456789": true,
		"hf_abcdefghijklmnopqrstuvwxyzABCDEFGH":    true,
		"-----BEGIN EC PRIVATE KEY-----\nMHc":      true,
		"npm_install":                              false,
		"hf_hub":                                   false,
	} {
		if got := sanitize.SecretValue(in); got != want {
			t.Errorf("SecretValue(%q) = %v, want %v", in, got, want)
		}
	}
}
