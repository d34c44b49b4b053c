// twinrt._twinrt.compare / localize: the CLI's `twinrt compare` and `twinrt localize`
// (src/cli/parity_commands.h) with the flags given as keyword arguments by
// python/twinrt/parity.py, returning the report.
#include <pybind11/stl.h>

#include "bindings.h"
#include "cli/model_card.h"
#include "cli/parity_commands.h"
#include "cli/pipeline_parity.h"
#include "cli/version.h"
#include "errors.h"
#include "parity/comparison.h"
#include "parity/report.h"
#include "parity/report_merge.h"

namespace py = pybind11;

namespace twinrt::python {
namespace {

template <class T>
void take(const py::dict& args, const char* key, T& into) {
  if (args.contains(key) && !args[key].is_none()) into = args[key].cast<T>();
}

cli::ParityFlags parity_flags(const std::vector<std::string>& models, const py::dict& args) {
  cli::ParityFlags f;
  f.models = models;
  take(args, "engines", f.engines);
  take(args, "engine", f.engine);
  take(args, "threads", f.threads);
  take(args, "graph_optimization", f.graph_optimization);
  take(args, "inputs", f.inputs.inputs);
  take(args, "test_data", f.inputs.test_data_dir);
  take(args, "cases", f.inputs.cases_dir);
  take(args, "images", f.inputs.images);
  take(args, "preprocess", f.inputs.preprocess);
  take(args, "ranges", f.inputs.ranges);
  take(args, "dims", f.inputs.dims);
  take(args, "seed", f.inputs.seed);
  return f;
}

struct PyReport {
  parity::Report report;
  bool engine_unavailable = false;
};

// Outputs already computed (by PyTorch, or an engine run from Python) as one run per
// label: a list of {output name: array} per case, or an error text when the run failed.
parity::EngineRun engine_run(const std::string& label, const std::string& model, const py::object& cases) {
  parity::EngineRun run;
  run.entry.name = label;
  run.entry.model = model;
  if (py::isinstance<py::str>(cases)) {
    run.entry.ok = false;
    run.entry.error = cases.cast<std::string>();
    run.failure = StatusCode::kInvalidArgument;
    return run;
  }
  for (py::handle c : cases) run.per_case.push_back(tensors_from_python(py::reinterpret_borrow<py::dict>(c)));
  return run;
}

parity::PolicySet policy_set(const std::string& policy) {
  if (policy.size() > 5 && policy.compare(policy.size() - 5, 5, ".json") == 0)
    return unwrap(parity::load_policy_file(policy));
  return parity::single_policy(unwrap(parity::builtin_policy(policy)));
}

// Cases as the report names them: (name, {input: source}) per case.
using CaseNames = std::vector<std::pair<std::string, std::map<std::string, std::string>>>;

std::vector<parity::InputCase> input_cases(const CaseNames& names) {
  std::vector<parity::InputCase> cases;
  for (const auto& [name, sources] : names) cases.push_back({name, {}, sources});
  return cases;
}

// Every run in `runs` (label -> cases or error text; the first is the baseline) compared
// output by output with the baseline, as `twinrt compare` reports it, with the worst of
// `cases` (case first_case + i of a sweep) ranked.
PyReport compare_outputs(const std::string& model, const std::vector<std::pair<std::string, py::object>>& runs,
                         const std::vector<std::string>& outputs, const std::string& policy,
                         const std::string& inputs, const CaseNames& cases, int64_t first_case, size_t keep) {
  if (runs.size() < 2) throw StatusError{invalid_argument("compare_outputs needs a baseline and at least one other run")};
  const parity::PolicySet policies = policy_set(policy);
  std::vector<parity::EngineRun> engine_runs;
  for (const auto& [label, cases] : runs) engine_runs.push_back(engine_run(label, model, cases));
  PyReport r;
  r.report.command = "compare";
  r.report.tool_version = cli::kVersion;
  r.report.models = {model};
  r.report.baseline = runs.front().first;
  r.report.inputs = inputs;
  r.report.cases = static_cast<int>(engine_runs.front().per_case.size());
  for (const auto& run : engine_runs) {
    r.report.engines.push_back(run.entry);
    r.report.passed &= run.entry.ok;
  }
  for (size_t i = 1; i < engine_runs.size(); ++i) {
    for (auto& o : unwrap(parity::compare_runs(engine_runs[0], engine_runs[i], outputs, policies, {}))) {
      r.report.passed &= o.verdict.passed;
      r.report.outputs.push_back(std::move(o));
    }
  }
  parity::rank_cases(r.report, input_cases(cases), first_case, keep);
  return r;
}

// A pipeline file over `feeds` ({input: array} per case, named by `cases`) with every model
// stage on each engine (cli/pipeline_parity.h).
PyReport compare_pipeline(const std::string& file, const std::vector<std::string>& engines, const py::list& feeds,
                          const CaseNames& cases, const std::string& policy, int64_t first_case, size_t keep) {
  if (feeds.size() != cases.size()) throw StatusError{invalid_argument("compare_pipeline: one name per case")};
  std::vector<parity::InputCase> input = input_cases(cases);
  for (size_t i = 0; i < input.size(); ++i) input[i].tensors = tensors_from_python(feeds[i].cast<py::dict>());
  const parity::PolicySet policies = policy_set(policy);
  py::gil_scoped_release no_gil;
  return PyReport{unwrap(cli::compare_pipeline_cases(file, engines, input, policies, first_case, keep)), false};
}

}  // namespace

void bind_parity(py::module_& m) {
  py::class_<PyReport>(m, "Report", "A compare or localize report (see twinrt.parity.Report).")
      .def_property_readonly("passed", [](const PyReport& r) { return r.report.passed; })
      .def_property_readonly("engine_unavailable", [](const PyReport& r) { return r.engine_unavailable; })
      .def("json", [](const PyReport& r) { return parity::to_json(r.report).dump(2); })
      .def("html", [](const PyReport& r) { return parity::render_html(r.report); })
      .def("terminal", [](const PyReport& r) { return parity::render_terminal(r.report); });

  m.def("compare", [](const std::vector<std::string>& models, const py::dict& args) {
        cli::CompareFlags f;
        f.parity = parity_flags(models, args);
        take(args, "baseline", f.baseline);
        take(args, "policy", f.policy);
        take(args, "box_format", f.box_format);
        take(args, "preprocess_check", f.preprocess_check);
        py::gil_scoped_release no_gil;
        cli::CompareOutcome outcome = unwrap(cli::run_compare(f));
        return PyReport{std::move(outcome.report), outcome.engine_unavailable};
      }, py::arg("models"), py::arg("args"));
  m.def("compare_outputs", &compare_outputs, py::arg("model"), py::arg("runs"), py::arg("outputs"),
        py::arg("policy"), py::arg("inputs"), py::arg("cases") = CaseNames{}, py::arg("first_case") = 0,
        py::arg("keep") = parity::kWorstCases);
  m.def("compare_pipeline", &compare_pipeline, py::arg("file"), py::arg("engines"), py::arg("feeds"),
        py::arg("cases"), py::arg("policy"), py::arg("first_case") = 0, py::arg("keep") = parity::kWorstCases);
  m.def("merge_reports", [](const std::vector<std::string>& parts, const std::optional<std::string>& policy,
                            size_t keep) {
        std::vector<parity::Report> reports;
        for (size_t i = 0; i < parts.size(); ++i) {
          const nlohmann::json document = nlohmann::json::parse(parts[i], nullptr, false);
          const std::string source = "report " + std::to_string(i + 1);
          if (document.is_discarded()) throw StatusError{invalid_argument(source + ": not valid JSON")};
          reports.push_back(unwrap(parity::report_from_json(document, source)));
        }
        std::optional<parity::PolicySet> policies;
        if (policy) policies = policy_set(*policy);
        return PyReport{unwrap(parity::merge_reports(reports, policies ? &*policies : nullptr, keep)), false};
      }, py::arg("parts"), py::arg("policy") = std::nullopt, py::arg("keep") = parity::kWorstCases,
      "Compare reports (JSON) over disjoint cases merged into one (twinrt report merge).");
  m.def("model_card", [](const std::string& path) {
        return cli::render_model_card(unwrap(cli::summarize_model(path)));
      }, py::arg("path"), "The model card `twinrt inspect --markdown` writes.");
  m.def("localize", [](const std::vector<std::string>& models, const py::dict& args) {
        cli::LocalizeFlags f;
        f.parity = parity_flags(models, args);
        py::gil_scoped_release no_gil;
        return PyReport{unwrap(cli::run_localize(f)), false};
      }, py::arg("models"), py::arg("args"));
}

}  // namespace twinrt::python
