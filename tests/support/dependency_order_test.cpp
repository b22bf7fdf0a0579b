// The stable topological order: the given order kept where no dependency forbids it, every item
// after its dependencies, and a cycle reported as a broken invariant rather than a hang.
#include "dse/support/dependency_order.hpp"

#include <gtest/gtest.h>

namespace dse {
namespace {

TEST(DependencyOrder, KeepsTheGivenOrderWithoutDependencies) {
  const std::vector<int> items{3, 1, 2};
  EXPECT_EQ(dependency_order(items, [](int, int) { return false; }), items);
}

TEST(DependencyOrder, MovesEachItemAfterItsDependencies) {
  // 0 needs 2, 1 needs 0: the first item ready at each step.
  const auto depends = [](int a, int b) { return (a == 0 && b == 2) || (a == 1 && b == 0); };
  EXPECT_EQ(dependency_order(std::vector<int>{0, 1, 2, 3}, depends),
            (std::vector<int>{2, 0, 1, 3}));
}

TEST(DependencyOrder, ACycleIsABrokenInvariant) {
  const auto depends = [](int a, int b) { return a != b; };
  EXPECT_THROW(dependency_order(std::vector<int>{0, 1}, depends), InternalError);
}

} // namespace
} // namespace dse
