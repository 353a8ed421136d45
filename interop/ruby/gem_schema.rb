# frozen_string_literal: true

# The tables as a Rails application using the gem might have them, written
# independently of `evalrun db:rails-migration`: Rails' default index names,
# a uuid default, plain `t.timestamps`, a numeric(12,6) cost. With
# legacy: true the case results keep 0.1's "criteria" column instead of
# "minimum_scores".
class CreateGemStyleEvaluationTables < ActiveRecord::Migration[6.1]
  def initialize(legacy: false)
    super()
    @legacy = legacy
  end

  def change
    create_table :ruby_llm_evaluations_runs, id: :uuid do |t|
      t.bigserial :sequence, null: false
      t.string :suite, :agent, :version, :suite_digest, :status, null: false
      t.datetime :started_at, :finished_at, null: false
      t.jsonb :metadata, :summary, null: false, default: {}
      t.timestamps
      t.index :sequence, unique: true
      t.index %i[suite agent suite_digest started_at sequence], name: "idx_evaluation_runs_baseline"
      t.index %i[started_at sequence]
    end

    create_table :ruby_llm_evaluations_case_results do |t|
      t.references :run, type: :uuid, null: false, foreign_key: { to_table: :ruby_llm_evaluations_runs }
      t.integer :position, null: false
      t.string :case_id, :name, :status, null: false
      t.float :duration_ms, null: false
      t.jsonb :question, :expected_answer, :expected_actions
      t.jsonb(@legacy ? :criteria : :minimum_scores)
      t.jsonb :metadata, null: false, default: {}
      t.jsonb :output, :actions, :response_metadata, :error_details
      t.integer :input_tokens, :output_tokens
      t.decimal :cost, precision: 12, scale: 6
      t.timestamps
      t.index %i[run_id position], unique: true
    end

    create_table :ruby_llm_evaluations_metric_results do |t|
      t.references :case_result, null: false, foreign_key: { to_table: :ruby_llm_evaluations_case_results }
      t.integer :position, null: false
      t.string :name, null: false
      t.float :threshold, null: false
      t.float :score
      t.boolean :passed, null: false
      t.text :reason
      t.jsonb :error_details
      t.timestamps
      t.index %i[case_result_id position], unique: true, name: "idx_evaluation_metric_results_position"
    end
  end
end
