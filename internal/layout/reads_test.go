package layout

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"testing"
)

// unboundedReadAllowed are the non-test files that may read a whole file
// without a limit, and why: none reads a path or stream a user gives.
var unboundedReadAllowed = map[string]string{
	"bounds/read.go":                       "the bounded reader itself",
	"internal/proc/guardian.go":            "the kernel's /proc files",
	"internal/proc/process.go":             "the kernel's /proc files",
	"internal/testkit/testdb/dedicated.go": "the log of a test server it started",
	"internal/testkit/testdb/server.go":    "the port and log files of a test server it started",
}

// TestLayout_BoundedReads: no non-test code reads a whole file or stream
// (os.ReadFile, io.ReadAll, ioutil.ReadAll/ReadFile) without a bound: an
// io.ReadAll must read through io.LimitReader, every other read goes
// through package bounds, which names the limit it enforces. /dev/zero or
// a FIFO fed forever then fails with that limit, never with the machine's
// memory.
func TestLayout_BoundedReads(t *testing.T) {
	root := moduleRoot(t)
	for _, p := range list(t, "./...") {
		for _, f := range p.files {
			path := filepath.Join(p.dir, f)
			rel, _ := filepath.Rel(root, path)
			if _, ok := unboundedReadAllowed[filepath.ToSlash(rel)]; ok {
				continue
			}
			fset := token.NewFileSet()
			file, err := parser.ParseFile(fset, path, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			ast.Inspect(file, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				name := callName(call.Fun)
				switch name {
				case "os.ReadFile", "ioutil.ReadFile":
					t.Errorf("%s: %s reads a whole file without a limit: use bounds.ReadFile(path, limit)", fset.Position(call.Pos()), name)
				case "io.ReadAll", "ioutil.ReadAll":
					if len(call.Args) != 1 || callName(argFun(call.Args[0])) != "io.LimitReader" {
						t.Errorf("%s: %s without io.LimitReader: use bounds.ReadAll(r, limit)", fset.Position(call.Pos()), name)
					}
				}
				return true
			})
		}
	}
}

// callName is "pkg.Func" for a call of a package-level function.
func callName(fun ast.Expr) string {
	sel, ok := fun.(*ast.SelectorExpr)
	if !ok {
		return ""
	}
	id, ok := sel.X.(*ast.Ident)
	if !ok {
		return ""
	}
	return id.Name + "." + sel.Sel.Name
}

func argFun(e ast.Expr) ast.Expr {
	if c, ok := e.(*ast.CallExpr); ok {
		return c.Fun
	}
	return nil
}
