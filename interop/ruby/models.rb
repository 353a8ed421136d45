# frozen_string_literal: true

# ActiveRecord models over the evaluation tables, shaped like the
# ruby_llm-agent-evaluations gem's (same table names, associations, nested
# attributes and read-only persisted records), for the interop test.

require "active_record"
require "securerandom"

module RubyLLM
  module Evaluations
    class InteropRecord < ActiveRecord::Base
      self.abstract_class = true

      # Evidence is append-only: a loaded record refuses save and destroy.
      def readonly?
        persisted?
      end
    end

    class Run < InteropRecord
      self.table_name = "ruby_llm_evaluations_runs"

      has_many :case_results, -> { order(:position) },
               class_name: "RubyLLM::Evaluations::CaseResult", inverse_of: :run
      accepts_nested_attributes_for :case_results

      scope :recent, -> { order(started_at: :desc, sequence: :desc) }

      before_validation(on: :create) { self.id ||= SecureRandom.uuid }

      # The newest earlier run of the same suite, agent and digest.
      def previous
        self.class.where(suite: suite, agent: agent, suite_digest: suite_digest)
            .where("started_at < :at OR (started_at = :at AND sequence < :seq)", at: started_at, seq: sequence)
            .recent.first
      end
    end

    class CaseResult < InteropRecord
      self.table_name = "ruby_llm_evaluations_case_results"

      belongs_to :run, class_name: "RubyLLM::Evaluations::Run", inverse_of: :case_results
      has_many :metric_results, -> { order(:position) },
               class_name: "RubyLLM::Evaluations::MetricResult", inverse_of: :case_result
      accepts_nested_attributes_for :metric_results
    end

    class MetricResult < InteropRecord
      self.table_name = "ruby_llm_evaluations_metric_results"

      belongs_to :case_result, class_name: "RubyLLM::Evaluations::CaseResult", inverse_of: :metric_results
    end
  end
end
