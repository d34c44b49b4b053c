// quantize::sensitivity_search with made-up scores: which steps it takes, in which order
// it keeps nodes in float, when it stops, and which step it chooses.
#include <gtest/gtest.h>

#include <cmath>
#include <map>

#include "quantize/search.h"

namespace twinrt::quantize {
namespace {

// Accuracy 1 once every node of `needed` is kept in float, else 0.5 minus a little per
// other node kept (so more float does not look better by itself).
SearchHooks hooks_needing(std::set<std::string> needed, std::map<std::string, double> sensitivity, int* scored) {
  SearchHooks h;
  h.score = [needed, scored](const std::set<std::string>& kept) -> Result<SearchScore> {
    ++*scored;
    bool all = true;
    for (const auto& n : needed) all &= kept.count(n) > 0;
    return SearchScore{all ? 1.0 : 0.5 - 0.01 * static_cast<double>(kept.size()), ""};
  };
  h.sensitivity = [sensitivity](const std::string& n) -> Result<double> { return sensitivity.at(n); };
  return h;
}

TEST(QuantizeSensitivitySearch, KeepsTheMostSensitiveUntilTheTargetIsMet) {
  int scored = 0;
  auto h = hooks_needing({"c", "a"}, {{"a", 0.3}, {"b", 0.1}, {"c", 0.9}, {"d", NAN}}, &scored);
  auto out = sensitivity_search({"a", "b", "c", "d"}, 1.0, 10, h);
  ASSERT_TRUE(out.is_ok()) << out.status().message();
  // NaN ranks first (an error that cannot be measured), then c, a.
  ASSERT_EQ(out->ranking.size(), 4u);
  EXPECT_EQ(out->ranking[0].first, "d");
  EXPECT_EQ(out->ranking[1].first, "c");
  EXPECT_TRUE(out->met);
  ASSERT_EQ(out->steps.size(), 4u);  // none, d, d+c, d+c+a
  EXPECT_EQ(out->chosen, 3u);
  EXPECT_EQ(out->steps[3].kept_float, (std::vector<std::string>{"d", "c", "a"}));
  EXPECT_EQ(scored, 4);
}

TEST(QuantizeSensitivitySearch, StopsAtStepZeroWhenTheFullQuantizationPasses) {
  int scored = 0;
  auto out = sensitivity_search({"a"}, 0.4, 10, hooks_needing({"a"}, {{"a", 1.0}}, &scored));
  ASSERT_TRUE(out.is_ok());
  EXPECT_TRUE(out->met);
  EXPECT_EQ(out->steps.size(), 1u);
  EXPECT_TRUE(out->ranking.empty());
}

TEST(QuantizeSensitivitySearch, BoundedStepsChooseTheBestScore) {
  int scored = 0;
  auto out = sensitivity_search({"a", "b", "c"}, 1.0, 2, hooks_needing({"c"}, {{"a", 3}, {"b", 2}, {"c", 1}}, &scored));
  ASSERT_TRUE(out.is_ok());
  EXPECT_FALSE(out->met);
  EXPECT_EQ(out->steps.size(), 3u);  // step 0 and two bounded steps
  EXPECT_EQ(out->chosen, 0u);        // more nodes in float scored lower here
}

TEST(QuantizeSensitivitySearch, ErrorsStopTheSearch) {
  SearchHooks h;
  h.score = [](const std::set<std::string>&) -> Result<SearchScore> { return invalid_argument("variant does not run"); };
  auto out = sensitivity_search({"a"}, 1.0, 3, h);
  ASSERT_FALSE(out.is_ok());
  EXPECT_NE(out.status().message().find("variant does not run"), std::string::npos);
}

}  // namespace
}  // namespace twinrt::quantize
