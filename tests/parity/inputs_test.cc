// build_input_set: every source (files, npz, test data, case folders, images, random with
// ranges, symbolic dims) and every error path, on hand-built model input lists.
#include <gtest/gtest.h>

#include <filesystem>
#include <set>

#include "inputs_test_files.h"
#include "io/random_tensor.h"
#include "parity/inputs.h"

namespace twinrt::parity {
namespace {

using testing::fresh_dir;

const std::string kData = std::string(TWINRT_SOURCE_DIR) + "/tests/parity/data";

bool contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

// A tensor input; -1 dims are symbolic, named by `names` ("" when anonymous).
IoInfo tensor_input(const std::string& name, DataType dtype, std::vector<int64_t> dims,
                    std::vector<std::string> names = {}) {
  IoInfo info;
  info.name = name;
  info.type = "tensor";
  info.dtype = dtype;
  info.has_shape = true;
  names.resize(dims.size());
  info.dims = std::move(dims);
  info.dim_names = std::move(names);
  return info;
}

// x: float32[2,3], y: int64[2].
std::vector<IoInfo> xy_model() {
  return {tensor_input("x", DataType::kFloat, {2, 3}), tensor_input("y", DataType::kInt64, {2})};
}

template <class T>
std::vector<T> values(const Tensor& t) {
  return std::vector<T>(t.data<T>(), t.data<T>() + t.numel());
}

Tensor x_tensor(float first) {
  std::vector<float> v;
  for (int i = 0; i < 6; ++i) v.push_back(first + static_cast<float>(i));
  return *Tensor::from_vector<float>({2, 3}, v);
}

std::string error_of(const std::vector<IoInfo>& model, const InputSpec& spec) {
  auto set = build_input_set(model, spec);
  EXPECT_FALSE(set.is_ok());
  return set.is_ok() ? "" : set.status().message();
}

TEST(InputSet, AllRandomIsSeededAndSameAsTwinrtRun) {
  InputSpec spec;
  spec.seed = 7;
  auto set = build_input_set(xy_model(), spec);
  ASSERT_TRUE(set.is_ok()) << set.status().message();
  ASSERT_EQ(set->cases.size(), 1u);
  EXPECT_EQ(set->cases[0].name, "random");
  EXPECT_EQ(set->cases[0].tensors.at("x").shape(), (std::vector<int64_t>{2, 3}));
  // Input i draws from derive_seed(seed, i), as `twinrt run --seed 7` does.
  auto expected_y = io::random_tensor(DataType::kInt64, {2}, io::derive_seed(7, 1));
  EXPECT_EQ(values<int64_t>(set->cases[0].tensors.at("y")), values<int64_t>(*expected_y));
  EXPECT_TRUE(set->preprocessing.is_null());
  EXPECT_EQ(set->description, "random x,y (seed 7)");
  auto again = build_input_set(xy_model(), spec);
  EXPECT_EQ(values<float>(again->cases[0].tensors.at("x")), values<float>(set->cases[0].tensors.at("x")));
}

TEST(InputSet, RangesBoundRandomValues) {
  std::vector<IoInfo> model = {tensor_input("f", DataType::kFloat, {1000}), tensor_input("h", DataType::kFloat16, {1000}),
                               tensor_input("i", DataType::kInt32, {1000})};
  InputSpec spec;
  spec.ranges = {{"f", {-3, -2}}, {"h", {0.5, 0.625}}, {"i", {-2, 2}}};
  auto set = build_input_set(model, spec);
  ASSERT_TRUE(set.is_ok()) << set.status().message();
  for (float v : values<float>(set->cases[0].tensors.at("f"))) {
    EXPECT_GE(v, -3.0f);
    EXPECT_LT(v, -2.0f);
  }
  // float16 has 2^-11 steps in [0.5, 1): [0.5, 0.625) holds 256 values; rounding never reaches 0.625.
  for (Float16 v : values<Float16>(set->cases[0].tensors.at("h"))) {
    EXPECT_GE(v.bits, 0x3800);  // 0.5
    EXPECT_LT(v.bits, 0x3900);  // 0.625
  }
  std::set<int32_t> seen;
  for (int32_t v : values<int32_t>(set->cases[0].tensors.at("i"))) seen.insert(v);
  EXPECT_EQ(seen, (std::set<int32_t>{-2, -1, 0, 1}));
  EXPECT_TRUE(contains(set->description, "f=-3:-2"));
  EXPECT_TRUE(contains(set->description, "h=0.5:0.625"));
}

TEST(InputSet, ParseRangeAndItsErrors) {
  auto r = parse_range("x=-1.5:2e3");
  ASSERT_TRUE(r.is_ok());
  EXPECT_EQ(r->first, "x");
  EXPECT_EQ(r->second, (std::pair<double, double>{-1.5, 2000}));
  for (const char* bad : {"x", "=0:1", "x=0", "x=1:0", "x=0:0", "x=a:1", "x=0:1:2", "x=0:inf", "x=:1"})
    EXPECT_TRUE(contains(parse_range(bad).status().message(), "--range expects NAME=LO:HI")) << bad;
  InputSpec spec;
  spec.ranges = {{"nope", {0, 1}}};
  EXPECT_TRUE(contains(error_of(xy_model(), spec), "--range: the model has no input named 'nope' (inputs: x, y)"));
  spec.ranges = {{"y", {0.2, 0.7}}};  // no integer n with 0.2 <= n < 0.7
  EXPECT_TRUE(contains(error_of(xy_model(), spec), "input 'y': range"));
}

TEST(InputSet, SymbolicDimsFromFlagOrGivenTensors) {
  std::vector<IoInfo> model = {tensor_input("x", DataType::kFloat, {-1, 3}, {"batch"}),
                               tensor_input("y", DataType::kInt64, {-1, -1}, {"batch", ""})};
  InputSpec spec;
  spec.dims = {{"batch", 4}};
  auto set = build_input_set(model, spec);
  ASSERT_TRUE(set.is_ok()) << set.status().message();
  EXPECT_EQ(set->cases[0].tensors.at("x").shape(), (std::vector<int64_t>{4, 3}));
  EXPECT_EQ(set->cases[0].tensors.at("y").shape(), (std::vector<int64_t>{4, 1}));  // anonymous: 1

  const std::string dir = fresh_dir();
  InputSpec given;
  given.files = {"x=" + testing::write_npy(dir + "/x.npy", x_tensor(0))};  // batch = 2
  auto inferred = build_input_set(model, given);
  ASSERT_TRUE(inferred.is_ok()) << inferred.status().message();
  EXPECT_EQ(inferred->cases[0].tensors.at("y").shape(), (std::vector<int64_t>{2, 1}));
  // --dim fixes the symbol, so a file of another size is refused.
  given.dims = {{"batch", 5}};
  EXPECT_TRUE(contains(error_of(model, given), "expected shape [5,3], got [2,3]"));
}

TEST(InputSet, NpyAndPbFilesByName) {
  const std::string dir = fresh_dir();
  InputSpec spec;
  spec.files = {"x=" + testing::write_npy(dir + "/x.npy", x_tensor(10)),
                "y=" + testing::write_pb(dir + "/y.pb", *Tensor::from_vector<int64_t>({2}, {-4, 9}))};
  auto set = build_input_set(xy_model(), spec);
  ASSERT_TRUE(set.is_ok()) << set.status().message();
  EXPECT_EQ(set->cases[0].name, "files");
  EXPECT_EQ(values<float>(set->cases[0].tensors.at("x")), (std::vector<float>{10, 11, 12, 13, 14, 15}));
  EXPECT_EQ(values<int64_t>(set->cases[0].tensors.at("y")), (std::vector<int64_t>{-4, 9}));
  EXPECT_FALSE(contains(set->description, "random"));
}

TEST(InputSet, NpzMembersByNameAndSingleMember) {
  InputSpec spec;
  spec.files = {kData + "/inputs_xy.npz"};
  auto set = build_input_set(xy_model(), spec);
  ASSERT_TRUE(set.is_ok()) << set.status().message();
  EXPECT_EQ(values<float>(set->cases[0].tensors.at("x")), (std::vector<float>{1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(values<int64_t>(set->cases[0].tensors.at("y")), (std::vector<int64_t>{7, 8}));

  // A one-input model takes a one-member archive whatever the member's name.
  std::vector<IoInfo> one = {tensor_input("image", DataType::kFloat, {2, 3})};
  spec.files = {kData + "/inputs_one_member.npz"};
  auto single = build_input_set(one, spec);
  ASSERT_TRUE(single.is_ok()) << single.status().message();
  EXPECT_EQ(values<float>(single->cases[0].tensors.at("image")), (std::vector<float>{0.5, 1, 1.5, 2, 2.5, 3}));
  // NAME=FILE.npz takes the member NAME (or the only member).
  spec.files = {"x=" + kData + "/inputs_one_member.npz", "y=" + kData + "/inputs_xy.npz"};
  auto named = build_input_set(xy_model(), spec);
  ASSERT_TRUE(named.is_ok()) << named.status().message();
  EXPECT_EQ(values<int64_t>(named->cases[0].tensors.at("y")), (std::vector<int64_t>{7, 8}));

  spec.files = {kData + "/inputs_stray_member.npz"};
  const std::string stray = error_of(xy_model(), spec);
  EXPECT_TRUE(contains(stray, "inputs_stray_member.npz': member 'nope'")) << stray;
  EXPECT_TRUE(contains(stray, "no input named 'nope'")) << stray;
  spec.files = {"image=" + kData + "/inputs_xy.npz"};
  EXPECT_TRUE(contains(error_of(one, spec), "the archive has no member 'image'"));
}

TEST(InputSet, TestDataFolder) {
  const std::string dir = fresh_dir("/test_data_set_0");
  testing::write_pb(dir + "/input_0.pb", x_tensor(1));
  testing::write_pb(dir + "/input_1.pb", *Tensor::from_vector<int64_t>({2}, {3, 4}));
  testing::write_pb(dir + "/output_0.pb", x_tensor(0));  // outputs are not inputs
  InputSpec spec;
  spec.test_data_dir = dir;
  auto set = build_input_set(xy_model(), spec);
  ASSERT_TRUE(set.is_ok()) << set.status().message();
  EXPECT_EQ(set->cases[0].name, "test_data_set_0");
  EXPECT_EQ(values<int64_t>(set->cases[0].tensors.at("y")), (std::vector<int64_t>{3, 4}));
  EXPECT_EQ(values<float>(set->cases[0].tensors.at("x"))[5], 6.0f);
  // The same input from --input too is given twice.
  spec.files = {"y=" + kData + "/inputs_xy.npz"};
  EXPECT_TRUE(contains(error_of(xy_model(), spec), "input 'y' is given twice"));
  testing::write_pb(dir + "/input_2.pb", x_tensor(0));
  spec.files.clear();
  EXPECT_TRUE(contains(error_of(xy_model(), spec), "input_2.pb' has no matching input"));
}

TEST(InputSet, CaseFoldersSortedWithPbOrNpy) {
  const std::string root = fresh_dir();
  namespace fs = std::filesystem;
  fs::create_directories(root + "/b_second");
  fs::create_directories(root + "/a_first");
  testing::write_pb(root + "/b_second/input_0.pb", x_tensor(100));
  testing::write_npy(root + "/a_first/x.npy", x_tensor(-6));
  testing::write_text(root + "/notes.txt", "files next to the case folders are ignored");
  InputSpec spec;
  spec.cases_dir = root;
  spec.files = {"y=" + kData + "/inputs_xy.npz"};  // shared by both cases
  auto set = build_input_set(xy_model(), spec);
  ASSERT_TRUE(set.is_ok()) << set.status().message();
  ASSERT_EQ(set->cases.size(), 2u);
  EXPECT_EQ(set->cases[0].name, "a_first");
  EXPECT_EQ(set->cases[1].name, "b_second");
  EXPECT_EQ(values<float>(set->cases[0].tensors.at("x"))[0], -6.0f);
  EXPECT_EQ(values<float>(set->cases[1].tensors.at("x"))[0], 100.0f);
  EXPECT_EQ(values<int64_t>(set->cases[1].tensors.at("y")), (std::vector<int64_t>{7, 8}));
  EXPECT_TRUE(contains(set->description, "2 cases from " + root));

  // An input in no case folder is random, the same in every case.
  spec.files.clear();
  auto random_y = build_input_set(xy_model(), spec);
  ASSERT_TRUE(random_y.is_ok()) << random_y.status().message();
  EXPECT_EQ(values<int64_t>(random_y->cases[0].tensors.at("y")), values<int64_t>(random_y->cases[1].tensors.at("y")));
  // In some folders only: an error naming the case.
  testing::write_npy(root + "/b_second/y.npy", *Tensor::from_vector<int64_t>({2}, {1, 2}));
  EXPECT_TRUE(contains(error_of(xy_model(), spec), "case 'a_first' has no value for input 'y'"));
  testing::write_npy(root + "/a_first/z.npy", x_tensor(0));
  EXPECT_TRUE(contains(error_of(xy_model(), spec), "z.npy': the model has no input named 'z'"));
}

TEST(InputSet, CaseFolderErrors) {
  InputSpec spec;
  spec.cases_dir = fresh_dir() + "/absent";
  EXPECT_TRUE(contains(error_of(xy_model(), spec), "absent' is not a readable directory"));
  spec.cases_dir = fresh_dir();
  EXPECT_TRUE(contains(error_of(xy_model(), spec), "has no case folders"));
}

TEST(InputSet, ImagesMakeOneCaseEach) {
  const std::string dir = fresh_dir();
  const std::string a = testing::write_png(dir + "/a.png", 2, 1, 3, {100, 40, 80, 0, 255, 10});
  const std::string b = testing::write_png(dir + "/b.png", 2, 1, 3, {0, 0, 0, 255, 255, 255});
  std::vector<IoInfo> model = {tensor_input("pixels", DataType::kFloat, {1, 3, 1, 2})};
  InputSpec spec;
  spec.images = {a, "pixels=" + b};
  spec.preprocess = PreprocessSpec{};  // x / 255
  auto set = build_input_set(model, spec);
  ASSERT_TRUE(set.is_ok()) << set.status().message();
  ASSERT_EQ(set->cases.size(), 2u);
  EXPECT_EQ(set->cases[0].name, "a.png");
  EXPECT_EQ(set->cases[1].name, "b.png");
  EXPECT_EQ(values<float>(set->cases[1].tensors.at("pixels")), (std::vector<float>{0, 1, 0, 1, 0, 1}));
  EXPECT_EQ(values<float>(set->cases[0].tensors.at("pixels"))[0], static_cast<float>(100 / 255.0));
  EXPECT_EQ(set->preprocessing["layout"], "nchw");
  EXPECT_EQ(set->preprocessing["channels"], "rgb");

  // A spec that gives another shape or dtype than the model's names the input and image.
  model[0].dims = {1, 3, 2, 2};
  std::string err = error_of(model, spec);
  EXPECT_TRUE(contains(err, "input 'pixels' from image '" + a + "': expected shape [1,3,2,2], got [1,3,1,2]")) << err;
  model[0].dims = {1, 3, 1, 2};
  model[0].dtype = DataType::kFloat16;
  EXPECT_TRUE(contains(error_of(model, spec), "expected dtype float16, got float32"));
}

TEST(InputSet, ImageErrors) {
  const std::string dir = fresh_dir();
  const std::string fake = testing::write_text(dir + "/fake.png", "GIF89a but not really");
  std::vector<IoInfo> one = {tensor_input("pixels", DataType::kFloat, {1, 3, 1, 2})};
  InputSpec spec;
  spec.images = {fake};
  EXPECT_TRUE(contains(error_of(one, spec), "--image needs --preprocess"));
  spec.preprocess = PreprocessSpec{};
  std::string err = error_of(one, spec);
  EXPECT_TRUE(contains(err, "fake.png")) << err;
  EXPECT_TRUE(contains(err, "stb_image")) << err;
  EXPECT_TRUE(contains(error_of(xy_model(), spec), "the model has 2 inputs, name one: --image NAME=FILE"));
  spec.images = {"nope=" + fake};
  EXPECT_TRUE(contains(error_of(one, spec), "--image: the model has no input named 'nope'"));
  spec.images = {dir + "/absent.png"};
  EXPECT_TRUE(contains(error_of(one, spec), "absent.png"));
  spec.cases_dir = dir;
  EXPECT_TRUE(contains(error_of(one, spec), "either --cases or --image"));
  InputSpec no_image;
  no_image.preprocess = PreprocessSpec{};
  EXPECT_TRUE(contains(error_of(one, no_image), "--preprocess is given but no --image"));
}

TEST(InputSet, FileErrorsNameTheInputAndTheFile) {
  const std::string dir = fresh_dir();
  InputSpec spec;
  spec.files = {"x=" + dir + "/absent.npy"};
  EXPECT_TRUE(contains(error_of(xy_model(), spec), "absent.npy"));
  spec.files = {"nope=" + dir + "/absent.npy"};
  EXPECT_TRUE(contains(error_of(xy_model(), spec), "--input: the model has no input named 'nope' (inputs: x, y)"));
  spec.files = {"y=" + testing::write_npy(dir + "/y_float.npy", x_tensor(0))};
  std::string err = error_of(xy_model(), spec);
  EXPECT_TRUE(contains(err, "input 'y' from '" + dir + "/y_float.npy': expected dtype int64, got float32")) << err;
  spec.files = {"x=" + testing::write_npy(dir + "/x_wide.npy", *Tensor::from_vector<float>({2, 4}, std::vector<float>(8)))};
  err = error_of(xy_model(), spec);
  EXPECT_TRUE(contains(err, "input 'x' from '" + dir + "/x_wide.npy': expected shape [2,3], got [2,4]")) << err;
  spec.files = {"x=" + testing::write_text(dir + "/x.txt", "1 2 3")};
  EXPECT_TRUE(contains(error_of(xy_model(), spec), "unknown file type"));
  spec.files = {dir + "/x.npy"};
  EXPECT_TRUE(contains(error_of(xy_model(), spec), "--input expects NAME=FILE or FILE.npz"));
  spec.files = {"x=" + testing::write_npy(dir + "/a.npy", x_tensor(0)), "x=" + dir + "/a.npy"};
  EXPECT_TRUE(contains(error_of(xy_model(), spec), "input 'x' is given twice"));
  spec.files.clear();
  spec.ranges = {{"x", {0, 1}}};
  spec.test_data_dir = dir + "/no_such_dir";
  EXPECT_TRUE(contains(error_of(xy_model(), spec), "--test-data: '" + dir + "/no_such_dir' is not a readable directory"));
}

TEST(InputSet, NonTensorInputsAreRefused) {
  IoInfo seq = tensor_input("s", DataType::kFloat, {2});
  seq.type = "sequence";
  EXPECT_TRUE(contains(error_of({seq}, InputSpec{}), "input 's' is a sequence"));
}

}  // namespace
}  // namespace twinrt::parity
