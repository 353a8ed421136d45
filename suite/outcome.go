package suite

import (
	"encoding/json"
	"slices"
	"strings"

	"github.com/agentevals-go/agentevals/score"
)

// Outcome checks and per-question setup.
//
//	"databases": {"app": {"url_env": "APP_DATABASE_URL"}},
//	"setup":    [{"database": "app", "sql": "DELETE FROM orders WHERE ref = ?", "args": ["case_id"]}],
//	"teardown": [{"command": ["./reset.sh"]}]
//
// A database's URL (postgres://… or sqlite:PATH) is read from the named
// environment variable when the run starts, never from the file, and never
// stored. db_state checks and SQL steps name a database; a name the suite
// does not declare is refused at load.

// Database is a database of the application under test, reached through
// the URL in the environment variable URLEnv.
type Database struct {
	Name   string
	URLEnv string
}

// Step is one setup or teardown step of every question: a program given
// the question as JSON on stdin (Command), or SQL run against a database
// with arguments taken from the question (see score.ArgSource).
type Step struct {
	Command []string
	Env     []string
	// Database, SQL and Args describe an SQL step.
	Database string
	SQL      string
	Args     []string
	Timeout  Duration
	// Source is where the step was declared: "file: $.setup[0]".
	Source string
}

var stepKeys = []string{"command", "env", "database", "sql", "args", "timeout"}

// parseDatabases reads the "databases" section.
func (s *Suite) parseDatabases(p Problems, raw json.RawMessage) {
	ms, ok := members(raw)
	if !ok {
		p.add("$.databases", `want an object of named databases such as {"app": {"url_env": "APP_DATABASE_URL"}}, got %s`, describe(raw))
		return
	}
	for _, m := range ms {
		path := child("$.databases", m.key)
		if strings.TrimSpace(m.key) == "" {
			p.add(path, "want a non-empty database name")
			continue
		}
		obj := p.object(path, m.value, "url_env")
		if obj == nil {
			continue
		}
		env, ok := obj["url_env"]
		if !ok {
			p.add(child(path, "url_env"), "missing: want the environment variable that holds the database URL (the URL itself never goes in the suite)")
			continue
		}
		name, ok := p.nonEmpty(child(path, "url_env"), env)
		if !ok {
			continue
		}
		if strings.ContainsAny(name, "=\x00:/ ") {
			p.add(child(path, "url_env"), "want an environment variable name, got %q (put the URL in that variable, not in the suite)", name)
			continue
		}
		s.Databases = append(s.Databases, Database{Name: m.key, URLEnv: name})
	}
}

// Database returns the suite's database called name.
func (s *Suite) Database(name string) (Database, bool) {
	i := slices.IndexFunc(s.Databases, func(d Database) bool { return d.Name == name })
	if i < 0 {
		return Database{}, false
	}
	return s.Databases[i], true
}

// databaseNames lists the declared databases for messages.
func (s *Suite) databaseNames() string {
	if len(s.Databases) == 0 {
		return `none: declare one under "databases", as in {"app": {"url_env": "APP_DATABASE_URL"}}`
	}
	names := make([]string, len(s.Databases))
	for i, d := range s.Databases {
		names[i] = d.Name
	}
	return strings.Join(names, ", ")
}

// checkDatabase records a problem when name is not a declared database.
func (s *Suite) checkDatabase(p Problems, path, name string) bool {
	if _, ok := s.Database(name); ok {
		return true
	}
	p.add(path, "unknown database %q (declared: %s)", name, s.databaseNames())
	return false
}

// checkOutcome checks what a state check's params refer to in the suite:
// its database must be declared.
func (s *Suite) checkOutcome(p Problems, path string, ev Evaluator, flat bool) bool {
	if ev.Type != score.StateCheck {
		return true
	}
	sp, _, err := score.ParseState(ev.Params)
	if err != nil {
		return true // reported by the caller
	}
	at := child(path, "database")
	if !flat {
		at = child(child(path, "params"), "database")
	}
	return s.checkDatabase(p, at, sp.Database)
}

// parseSteps reads "setup" or "teardown".
func (s *Suite) parseSteps(p Problems, path string, raw json.RawMessage) []Step {
	var items []json.RawMessage
	if len(raw) == 0 || raw[0] != '[' || json.Unmarshal(raw, &items) != nil {
		p.add(path, `want an array of steps such as [{"command": ["./reset.sh"]}] or [{"database": "app", "sql": "…"}], got %s`, describe(raw))
		return nil
	}
	var out []Step
	for i, item := range items {
		ip := Index(path, i)
		obj := p.object(ip, item, stepKeys...)
		if obj == nil {
			continue
		}
		st := Step{Source: p.File + ": " + ip}
		ok := true
		if c, has := obj["command"]; has {
			if st.Command, ok = p.strings(child(ip, "command"), c); ok && len(st.Command) == 0 {
				p.add(child(ip, "command"), "want at least the program to run")
				ok = false
			}
		}
		if e, has := obj["env"]; has {
			st.Env, _ = p.strings(child(ip, "env"), e)
		}
		if d, has := obj["database"]; has {
			if st.Database, ok = p.nonEmpty(child(ip, "database"), d); ok {
				ok = s.checkDatabase(p, child(ip, "database"), st.Database)
			}
		}
		if q, has := obj["sql"]; has {
			st.SQL, ok = p.nonEmpty(child(ip, "sql"), q)
		}
		if a, has := obj["args"]; has {
			if st.Args, ok = p.strings(child(ip, "args"), a); ok {
				for j, arg := range st.Args {
					if _, err := score.ArgSource(arg); err != nil {
						p.add(Index(child(ip, "args"), j), "%v", err)
						ok = false
					}
				}
			}
		}
		if t, has := obj["timeout"]; has {
			if err := st.Timeout.UnmarshalJSON(t); err != nil {
				p.add(child(ip, "timeout"), "%v", err)
				ok = false
			}
		}
		switch {
		case st.Command != nil && (st.Database != "" || st.SQL != ""):
			p.add(ip, `want either "command" or "database" with "sql", not both`)
			ok = false
		case st.Command == nil && (st.Database == "" || st.SQL == ""):
			p.add(ip, `want "command" (a program given the question as JSON) or "database" with "sql"`)
			ok = false
		}
		if ok {
			out = append(out, st)
		}
	}
	return out
}

// Child appends an object key to a JSON path, as problems name fields.
func Child(path, key string) string { return child(path, key) }

// outcomeEnv lists the database URL variables a run reads.
func (s *Suite) outcomeEnv() []EnvVar {
	var out []EnvVar
	for _, d := range s.Databases {
		out = append(out, EnvVar{Name: d.URLEnv, For: child(child("$.databases", d.Name), "url_env")})
	}
	return out
}
