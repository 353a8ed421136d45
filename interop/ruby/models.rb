# frozen_string_literal: true

# ActiveRecord models over the evaluation tables, shaped like the
# ruby_llm-agent-evaluations gem's (same table names, associations, nested
# attributes, read-only persisted records, the gem's validations and its
# JSON-portable snapshot), for the interop test.

require "active_record"
require "bigdecimal"
require "securerandom"
require "time"

module RubyLLM
  module Evaluations
    class InteropRecord < ActiveRecord::Base
      self.abstract_class = true

      # Evidence is append-only: a loaded record refuses save and destroy.
      def readonly?
        persisted?
      end

      # A JSON value made of hashes with string keys, arrays, UTF-8
      # strings, finite numbers, booleans and nil; times become ISO 8601
      # text and decimals their digits. Anything else raises ArgumentError.
      def self.portable(value)
        case value
        when Hash then value.each_with_object({}) { |(k, v), h| h[k.to_s] = portable(v) }
        when Array then value.map { |v| portable(v) }
        when String
          raise ArgumentError, "holds text that is not UTF-8" unless value.encoding == Encoding::UTF_8 && value.valid_encoding?

          value
        when Float, BigDecimal
          raise ArgumentError, "holds a number that is not finite" unless value.finite?

          value.is_a?(BigDecimal) ? value.to_s("F") : value
        when Integer, true, false, nil then value
        when Time then value.utc.iso8601(6)
        else raise ArgumentError, "holds a #{value.class}, not a JSON value"
        end
      end

      private

      # Each JSON column must hold a portable value.
      def portable_json(*names)
        names.each do |name|
          self.class.portable(self[name])
        rescue ArgumentError => e
          errors.add(name, e.message)
        end
      end
    end

    class Run < InteropRecord
      self.table_name = "ruby_llm_evaluations_runs"

      has_many :case_results, -> { order(:position) },
               class_name: "RubyLLM::Evaluations::CaseResult", inverse_of: :run
      accepts_nested_attributes_for :case_results

      scope :recent, -> { order(started_at: :desc, sequence: :desc) }

      before_validation(on: :create) { self.id ||= SecureRandom.uuid }
      validates :suite, :agent, :version, :suite_digest, :started_at, :finished_at, presence: true
      validates :status, inclusion: { in: ["completed"] }
      validate do
        portable_json(:metadata, :summary)
        errors.add(:metadata, "must be a hash") unless metadata.is_a?(Hash)
        errors.add(:summary, "must be a hash") unless summary.is_a?(Hash)
      end

      # The run and its cases as plain JSON values, detached from the database.
      def snapshot
        self.class.portable(
          id: id, suite: suite, agent: agent, version: version, suite_digest: suite_digest,
          started_at: started_at, finished_at: finished_at, status: status,
          metadata: metadata, summary: summary, cases: case_results.map(&:snapshot)
        )
      end

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
      validates :case_id, :name, presence: true
      validates :position, numericality: { only_integer: true, greater_than_or_equal_to: 0 }
      validates :status, inclusion: { in: %w[passed failed error not_evaluated] }
      validates :duration_ms, numericality: { greater_than_or_equal_to: 0 }
      validate do
        portable_json(:question, :expected_answer, :expected_actions, :minimum_scores, :metadata,
                      :output, :actions, :response_metadata, :error_details)
        errors.add(:metadata, "must be a hash") unless metadata.is_a?(Hash)
      end

      def snapshot
        self.class.portable(
          id: case_id, name: name, question: question, expected_answer: expected_answer,
          expected_actions: expected_actions, minimum_scores: minimum_scores, metadata: metadata,
          output: output, status: status, duration_ms: duration_ms, input_tokens: input_tokens,
          output_tokens: output_tokens, cost: cost, actions: actions, response_metadata: response_metadata,
          error: error_details, metrics: metric_results.map(&:snapshot)
        )
      end
    end

    class MetricResult < InteropRecord
      self.table_name = "ruby_llm_evaluations_metric_results"

      belongs_to :case_result, class_name: "RubyLLM::Evaluations::CaseResult", inverse_of: :metric_results
      validates :name, presence: true
      validates :position, numericality: { only_integer: true, greater_than_or_equal_to: 0 }
      validates :threshold, numericality: { greater_than_or_equal_to: 0, less_than_or_equal_to: 1 }
      validates :score, numericality: { greater_than_or_equal_to: 0, less_than_or_equal_to: 1 }, allow_nil: true
      validates :passed, inclusion: { in: [true, false] }
      validate { portable_json(:error_details) }

      def snapshot
        self.class.portable(name: name, threshold: threshold, score: score, passed: passed,
                            reason: reason, error: error_details)
      end
    end
  end
end
