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
		cases []struct{ in, want string }
	}{
		{"name=scheme token", []struct{ in, want string }{
			{"AUTH_HEADER=Bearer abc123def456", "AUTH_HEADER=Bearer [REDACTED]"},
			{"Authorization=Bearer abc", "Authorization=Bearer [REDACTED]"},
			{"export GH=Bearer TOKENVALUE next", "export GH=Bearer [REDACTED] next"},
			{"x=token a1b2c3", "x=token [REDACTED]"},
			{"mode=basic setup", "mode=basic setup"},
			{"AUTH_HEADER=Bearer [REDACTED]", "AUTH_HEADER=Bearer [REDACTED]"},
		}},
		{"PEM private key", []struct{ in, want string }{
			{"key:\n-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\nabc+/=\n-----END RSA PRIVATE KEY-----\ndone", "key:\n[REDACTED]\ndone"},
			{"-----BEGIN PRIVATE KEY-----\nMIIE", "[REDACTED]"},
			{`"-----BEGIN OPENSSH PRIVATE KEY-----\nb3Blbn\n-----END OPENSSH PRIVATE KEY-----"`, `"[REDACTED]"`},
			{"-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----", "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----"},
			{"a private key is secret", "a private key is secret"},
		}},
		{"name = value with spaces", []struct{ in, want string }{
			{"aws_secret_access_key = wJalrXUtnFEMI/K7MDENG", "aws_secret_access_key = [REDACTED]"},
			{"password\t=\thunter2", "password\t=\t[REDACTED]"},
			{"aws_access_key_id = AKIAABCDEFGHIJKLMNOP", "aws_access_key_id = [REDACTED]"},
			{"region = eu-west-1", "region = eu-west-1"},
			{"max_tokens = 100", "max_tokens = 100"},
		}},
		{"npm token", []struct{ in, want string }{
			{"//registry/:_authToken=npm_abcdefghijklmnopqrstuvwxyz0123456789", "//registry/:_authToken=[REDACTED]"},
			{"use npm_abcdefghijklmnopqrstuvwxyz0123456789 here", "use [REDACTED] here"},
			{"run npm_install and npm_config_cache", "run npm_install and npm_config_cache"},
		}},
		{"hugging face token", []struct{ in, want string }{
			{"HF hf_abcdefghijklmnopqrstuvwxyzABCDEFGH ok", "HF [REDACTED] ok"},
			{"the hf_hub_download call", "the hf_hub_download call"},
		}},
		{"scheme word in prose", []struct{ in, want string }{
			{"want token counts in [0, 2147483647], got -1", "want token counts in [0, 2147483647], got -1"},
			{"send a bearer token.", "send a bearer token."},
			{"token usage: basic auth", "token usage: basic auth"},
			{"sent bearer abc.def", "sent bearer [REDACTED]"},
			{"Token 0123abcd.", "Token [REDACTED]"},
			{"digest averylongrandomlettersonlyvalue", "digest [REDACTED]"},
		}},
	} {
		t.Run(shape.name, func(t *testing.T) {
			for _, tc := range shape.cases {
				got := sanitize.String(tc.in)
				if got != tc.want {
					t.Errorf("String(%q) = %q, want %q", tc.in, got, tc.want)
				}
				if again := sanitize.String(got); again != got {
					t.Errorf("second pass changed %q to %q", got, again)
				}
			}
		})
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
