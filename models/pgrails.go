package models

import (
	"fmt"
	"net/url"
	"sort"
	"strings"
)

// railsClientParams are the query parameters Rails (ActiveRecord's
// PostgreSQL adapter) reads from a DATABASE_URL for its own connection
// pool and statement cache. PostgreSQL knows none of them and refuses the
// connection when they are sent as settings, so they are left out.
var railsClientParams = map[string]bool{
	"adapter": true, "pool": true, "timeout": true, "reconnect": true,
	"prepared_statements": true, "checkout_timeout": true, "idle_timeout": true,
	"reaping_frequency": true, "statement_limit": true, "advisory_locks": true,
}

// railsMappedParams are Rails' names for PostgreSQL settings.
var railsMappedParams = map[string]string{
	"encoding":           "client_encoding",
	"schema_search_path": "search_path",
	"min_messages":       "client_min_messages",
}

// railsURL rewrites a Rails-style PostgreSQL URL for pgx: the parameters
// only Rails reads are dropped and Rails' names for server settings are
// renamed. note says what was dropped ("" when nothing was).
func railsURL(raw string) (rewritten, note string, err error) {
	if !strings.Contains(raw, "?") {
		return raw, "", nil
	}
	u, err := url.Parse(raw)
	if err != nil {
		return "", "", err
	}
	q := u.Query()
	var dropped []string
	changed := false
	for key := range q {
		if railsClientParams[key] {
			dropped = append(dropped, key)
			q.Del(key)
			changed = true
			continue
		}
		if to, ok := railsMappedParams[key]; ok {
			if _, set := q[to]; !set {
				q.Set(to, q.Get(key))
			}
			q.Del(key)
			changed = true
		}
	}
	if !changed {
		return raw, "", nil
	}
	u.RawQuery = q.Encode()
	if len(dropped) > 0 {
		sort.Strings(dropped)
		note = fmt.Sprintf("the database URL's %s only configure Rails' own connection pool: ignored", strings.Join(dropped, ", "))
	}
	return u.String(), note, nil
}
