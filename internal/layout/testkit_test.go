package layout

import (
	"strings"
	"testing"
)

// TestLayout_TestKitsOnlyInTests: the kits under internal/testkit (throwaway
// databases, run fixtures, the gate simulation, axe, npm fixtures) are
// imported by tests, benchmarks and each other only, never by code that
// ships in evalrun or evaldash.
func TestLayout_TestKitsOnlyInTests(t *testing.T) {
	const module = "github.com/agentevals-go/agentevals/"
	const kits = module + "internal/testkit/"
	for _, p := range list(t, "./...") {
		if strings.HasPrefix(p.path, kits) || strings.HasPrefix(p.path, module+"bench/") {
			continue
		}
		for _, imp := range p.imports {
			if strings.HasPrefix(imp, kits) {
				t.Errorf("%s imports the test kit %s outside its tests", strings.TrimPrefix(p.path, module), strings.TrimPrefix(imp, module))
			}
		}
	}
}
