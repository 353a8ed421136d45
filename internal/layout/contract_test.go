package layout

import (
	"os/exec"
	"strings"
	"testing"
)

// sdkPrefixes are the model SDKs and their transports: only provider (and
// what imports it) may link them.
var sdkPrefixes = []string{
	"github.com/tmc/langchaingo",
	"cloud.google.com/",
	"google.golang.org/genai",
	"google.golang.org/api",
	"google.golang.org/grpc",
	"github.com/aws/",
}

// TestLayout_ContractLinksNoSDK: a Go agent imports agent and score, and
// a suite is read with suite and llm's settings; none of them may link a
// model SDK, or every Go agent's build carries all of them.
func TestLayout_ContractLinksNoSDK(t *testing.T) {
	const module = "github.com/agentevals-go/agentevals/"
	for _, p := range list(t, "./agent", "./score", "./suite", "./llm", "./money") {
		for _, d := range p.deps {
			for _, sdk := range sdkPrefixes {
				if strings.HasPrefix(d, sdk) {
					t.Errorf("%s links %s: the agent contract, the scorers and the suite must link no model SDK", strings.TrimPrefix(p.path, module), d)
					break
				}
			}
		}
	}
}

// maxGoAgentPackages bounds the packages outside the standard library that
// the smallest Go agent (testdata/goagent: agent and score only) compiles.
const maxGoAgentPackages = 60

// TestLayout_GoAgentPackages: the smallest Go agent compiles at most
// maxGoAgentPackages packages outside the standard library.
func TestLayout_GoAgentPackages(t *testing.T) {
	cmd := exec.Command("go", "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", "./internal/layout/testdata/goagent")
	cmd.Dir = moduleRoot(t)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -deps ./internal/layout/testdata/goagent: %v", err)
	}
	pkgs := strings.Fields(string(out))
	if len(pkgs) == 0 {
		t.Fatal("go list listed no package for the Go agent")
	}
	if len(pkgs) > maxGoAgentPackages {
		t.Errorf("a Go agent importing agent and score compiles %d packages outside the standard library, want at most %d:\n%s",
			len(pkgs), maxGoAgentPackages, strings.Join(pkgs, "\n"))
	}
	for _, p := range pkgs {
		for _, sdk := range sdkPrefixes {
			if strings.HasPrefix(p, sdk) {
				t.Errorf("a Go agent importing agent and score links %s", p)
			}
		}
	}
}

// TestLayout_EvaltestLinksNoModelSDK: a Go agent's go test imports
// evaltest; it links no model SDK and not provider, which the caller passes
// in (evaltest.WithModels) when a judge or an llm agent is wanted. gRPC is
// not counted here: the trace receiver's OTLP types bring it.
func TestLayout_EvaltestLinksNoModelSDK(t *testing.T) {
	const provider = "github.com/agentevals-go/agentevals/provider"
	for _, p := range list(t, "./evaltest", "./eval", "./runner", "./adapter") {
		for _, d := range p.deps {
			if d == provider {
				t.Errorf("%s links %s: the model providers are passed in, never imported", p.path, d)
			}
			for _, sdk := range sdkPrefixes {
				if strings.HasPrefix(d, sdk) && sdk != "google.golang.org/grpc" {
					t.Errorf("%s links %s: evaltest and the pipeline under it must link no model SDK", p.path, d)
					break
				}
			}
		}
	}
}
