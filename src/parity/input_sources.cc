#include "parity/input_sources.h"

#include <algorithm>
#include <filesystem>

#include "io/input_values.h"
#include "io/npz.h"

namespace twinrt::parity {
namespace {

namespace fs = std::filesystem;

bool has_suffix(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// The entries of a folder, without the exceptions of a range-for over directory_iterator.
Result<std::vector<fs::path>> list_folder(const std::string& dir) {
  std::error_code ec;
  std::vector<fs::path> entries;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) entries.push_back(it->path());
  if (ec) return io_error("--cases: cannot read '" + dir + "': " + ec.message());
  return entries;
}

Result<Tensor> load_tensor_file(const std::string& path, const ir::ValueInfo& decl) {
  ASSIGN_OR_RETURN(Value v, io::load_input_file(path, decl));
  return std::move(v.tensor);  // a tensor: the declaration is one (tensor_declarations)
}

Status bind_npz_member(io::NpzMember member, const std::string& path, size_t index, InputBindings& b) {
  const ir::ValueInfo& decl = (*b.decls)[index];
  const std::string source = path + ":" + member.name;
  ASSIGN_OR_RETURN(Value v, io::conform_to_declaration(Value::of(std::move(member.tensor)), decl.type,
                                                       "input '" + decl.name + "' from '" + source + "'"));
  return b.bind(index, std::move(v.tensor), source);
}

// FILE.npz: members by input name; a one-input model takes a one-member archive.
Status bind_npz(const std::string& path, InputBindings& b) {
  ASSIGN_OR_RETURN(std::vector<io::NpzMember> members, io::read_npz_file(path));
  if (members.empty()) return invalid_argument("--input: '" + path + "' holds no arrays");
  if (b.decls->size() == 1 && members.size() == 1) return bind_npz_member(std::move(members[0]), path, 0, b);
  for (io::NpzMember& m : members) {
    auto index = b.index_of(m.name, "--input '" + path + "': member '" + m.name + "'");
    if (!index) return index.status();
    TRY(bind_npz_member(std::move(m), path, *index, b));
  }
  return Status::ok();
}

// NAME=FILE.npz: the member called NAME, or the archive's only member.
Status bind_npz_for(const std::string& path, size_t index, InputBindings& b) {
  ASSIGN_OR_RETURN(std::vector<io::NpzMember> members, io::read_npz_file(path));
  const std::string& name = (*b.decls)[index].name;
  for (io::NpzMember& m : members)
    if (m.name == name || members.size() == 1) return bind_npz_member(std::move(m), path, index, b);
  return invalid_argument("--input " + name + "=" + path + ": the archive has no member '" + name + "'");
}

}  // namespace

std::string join_names(const std::vector<ir::ValueInfo>& decls) {
  std::string s;
  for (const ir::ValueInfo& d : decls) s += (s.empty() ? "" : ", ") + d.name;
  return s.empty() ? "none" : s;
}

Result<size_t> InputBindings::index_of(const std::string& name, const std::string& flag) const {
  for (size_t i = 0; i < decls->size(); ++i)
    if ((*decls)[i].name == name) return i;
  return invalid_argument(flag + ": the model has no input named '" + name + "' (inputs: " + join_names(*decls) + ")");
}

Status InputBindings::bind(size_t index, Tensor tensor, std::string source) {
  if (bound[index])
    return invalid_argument("input '" + (*decls)[index].name + "' is given twice: by '" + bound[index]->source +
                            "' and by '" + source + "'");
  bound[index] = BoundTensor{std::move(tensor), std::move(source)};
  return Status::ok();
}

Result<std::vector<ir::ValueInfo>> tensor_declarations(const std::vector<IoInfo>& inputs,
                                                       const std::map<std::string, int64_t>& dims) {
  std::vector<ir::ValueInfo> decls;
  for (const IoInfo& in : inputs) {
    if (in.type != "tensor")
      return not_implemented("input '" + in.name + "' is a " + in.type + "; comparisons feed tensor inputs only");
    std::optional<ir::Shape> shape;
    if (in.has_shape) {
      shape.emplace();
      for (size_t i = 0; i < in.dims.size(); ++i) {
        const std::string& symbol = i < in.dim_names.size() ? in.dim_names[i] : "";
        auto given = dims.find(symbol);
        if (in.dims[i] >= 0) shape->push_back(ir::Dim::of(in.dims[i]));
        else if (!symbol.empty() && given != dims.end()) shape->push_back(ir::Dim::of(given->second));
        else shape->push_back(ir::Dim::named(symbol));
      }
    }
    decls.push_back(ir::ValueInfo{in.name, ir::TypeInfo::tensor(in.dtype, std::move(shape)), ""});
  }
  return decls;
}

Status bind_input_file(const std::string& arg, InputBindings& b) {
  const size_t eq = arg.find('=');
  if (eq == std::string::npos) {
    if (has_suffix(arg, ".npz")) return bind_npz(arg, b);
    return invalid_argument("--input expects NAME=FILE or FILE.npz, got '" + arg + "'");
  }
  const std::string name = arg.substr(0, eq), path = arg.substr(eq + 1);
  if (name.empty() || path.empty()) return invalid_argument("--input expects NAME=FILE or FILE.npz, got '" + arg + "'");
  ASSIGN_OR_RETURN(size_t index, b.index_of(name, "--input"));
  if (has_suffix(path, ".npz")) return bind_npz_for(path, index, b);
  ASSIGN_OR_RETURN(Tensor t, load_tensor_file(path, (*b.decls)[index]));
  return b.bind(index, std::move(t), path);
}

Status bind_test_data(const std::string& dir, InputBindings& b) {
  auto values = io::load_test_data_folder(dir, *b.decls);
  if (!values) return values.status().with_context("--test-data: ");
  for (size_t i = 0; i < values->size(); ++i)
    if ((*values)[i]) TRY(b.bind(i, std::move((*values)[i]->value.tensor), (*values)[i]->path));
  return Status::ok();
}

Status bind_case_folder(const std::string& dir, InputBindings& b) {
  auto values = io::load_test_data_folder(dir, *b.decls);
  if (!values) return values.status().with_context("--cases: ");
  for (size_t i = 0; i < values->size(); ++i)
    if ((*values)[i]) TRY(b.bind(i, std::move((*values)[i]->value.tensor), (*values)[i]->path));
  ASSIGN_OR_RETURN(std::vector<fs::path> entries, list_folder(dir));
  std::vector<fs::path> npy_files;
  for (const fs::path& p : entries)
    if (p.extension() == ".npy") npy_files.push_back(p);
  std::sort(npy_files.begin(), npy_files.end());
  for (const fs::path& file : npy_files) {
    ASSIGN_OR_RETURN(size_t index, b.index_of(file.stem().string(), "--cases: '" + file.string() + "'"));
    ASSIGN_OR_RETURN(Tensor t, load_tensor_file(file.string(), (*b.decls)[index]));
    TRY(b.bind(index, std::move(t), file.string()));
  }
  return Status::ok();
}

Result<std::vector<std::string>> list_case_folders(const std::string& dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return io_error("--cases: '" + dir + "' is not a readable directory");
  ASSIGN_OR_RETURN(std::vector<fs::path> entries, list_folder(dir));
  std::vector<std::string> folders;
  for (const fs::path& p : entries)
    if (fs::is_directory(p, ec)) folders.push_back(p.string());
  if (folders.empty()) return invalid_argument("--cases: '" + dir + "' has no case folders");
  std::sort(folders.begin(), folders.end());
  return folders;
}

Result<std::pair<size_t, std::string>> image_target(const std::string& arg, const InputBindings& b) {
  const size_t eq = arg.find('=');
  if (eq != std::string::npos && eq > 0) {
    ASSIGN_OR_RETURN(size_t index, b.index_of(arg.substr(0, eq), "--image"));
    return std::pair{index, arg.substr(eq + 1)};
  }
  if (b.decls->size() != 1)
    return invalid_argument("--image " + arg + ": the model has " + std::to_string(b.decls->size()) +
                            " inputs, name one: --image NAME=FILE (inputs: " + join_names(*b.decls) + ")");
  return std::pair{size_t{0}, arg};
}

}  // namespace twinrt::parity
