package models_test

import (
	"context"
	"testing"

	"github.com/agentevals-go/agentevals/internal/testkit/testdb"
	"github.com/agentevals-go/agentevals/models"
)

// Bun reports bad struct tags only at run time: register every model and
// create its table from the tags on both dialects.
func TestModelsRegisterAndCreateTables(t *testing.T) {
	for name, url := range map[string]string{"postgres": testdb.PostgresURL(t), "sqlite": testdb.SQLiteURL(t)} {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			db, err := models.Open(ctx, url, models.OpenOptions{})
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			all := []any{(*models.Run)(nil), (*models.CaseResult)(nil), (*models.MetricResult)(nil)}
			db.RegisterModel(all...)
			for _, m := range all {
				if _, err := db.NewCreateTable().Model(m).Exec(ctx); err != nil {
					t.Errorf("create table for %T: %v", m, err)
				}
				var n int
				if err := db.NewSelect().Model(m).ColumnExpr("count(*)").Scan(ctx, &n); err != nil {
					t.Errorf("select from %T: %v", m, err)
				}
			}
		})
	}
}
