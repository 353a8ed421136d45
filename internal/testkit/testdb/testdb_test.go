package testdb

import "testing"

func TestPostgresURL_CreatesSchema(t *testing.T) {
	u := PostgresURL(t)
	db := open(t, u)
	var got string
	if err := db.QueryRow("SELECT current_schema()").Scan(&got); err != nil {
		t.Fatal(err)
	}
	if got == "" || got == "public" {
		t.Fatalf("current_schema = %q, want the test schema", got)
	}
}
