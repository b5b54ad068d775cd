// Generator spec strings, the registry of kinds, and the errors of generate().
#include <gtest/gtest.h>

#include <set>
#include <vector>
#include <string>

#include "spmv/error.hpp"
#include "spmv/gen.hpp"
#include "test_support.hpp"

namespace spmv {
namespace {

Csr<double> gen(const std::string& spec) { return generate(parse_generator_spec(spec)); }

// Runs `build` and expects an exception of type E whose message contains every
// one of `needles`.
template <class E, class Build>
void expect_error(const Build& build, std::initializer_list<std::string> needles) {
  try {
    build();
    ADD_FAILURE() << "no exception";
  } catch (const E& error) {
    for (const std::string& needle : needles)
      EXPECT_NE(std::string(error.what()).find(needle), std::string::npos)
          << "message '" << error.what() << "' does not name '" << needle << "'";
  }
}

TEST(GenSpec, ParsesKindAndParameters) {
  const GeneratorSpec spec = parse_generator_spec("rmat:scale=20,edge_factor=16,seed=3");
  EXPECT_EQ(spec.kind, "rmat");
  EXPECT_EQ(spec.params, (std::map<std::string, std::string>{
                             {"scale", "20"}, {"edge_factor", "16"}, {"seed", "3"}}));
  EXPECT_EQ(parse_generator_spec("stencil27").params.size(), 0u);
}

TEST(GenSpec, ToStringRoundTrips) {
  for (const char* text : {"stencil27", "stencil27:n=150", "rmat:edge_factor=16,scale=20,seed=3"}) {
    EXPECT_EQ(to_string(parse_generator_spec(text)), text);
  }
  // Keys come out sorted.
  EXPECT_EQ(to_string(parse_generator_spec("uniform:rows=5,cols=4")), "uniform:cols=4,rows=5");
}

TEST(GenSpec, SyntaxErrorsNameTheProblem) {
  expect_error<InvalidArgument>([] { parse_generator_spec(""); }, {"kind"});
  expect_error<InvalidArgument>([] { parse_generator_spec(":n=3"); }, {"kind"});
  expect_error<InvalidArgument>([] { parse_generator_spec("sten cil"); }, {"kind"});
  expect_error<InvalidArgument>([] { parse_generator_spec("stencil5:"); }, {"key=value"});
  expect_error<InvalidArgument>([] { parse_generator_spec("stencil5:n"); }, {"'n'", "key=value"});
  expect_error<InvalidArgument>([] { parse_generator_spec("stencil5:n="); }, {"'n'", "empty"});
  expect_error<InvalidArgument>([] { parse_generator_spec("stencil5:=4"); }, {"'=4'"});
  expect_error<InvalidArgument>([] { parse_generator_spec("stencil5:n=4,,nx=2"); }, {"key=value"});
  expect_error<InvalidArgument>([] { parse_generator_spec("stencil5:n=4,n=5"); }, {"'n'", "twice"});
}

TEST(GenSpec, UnknownKindOrParameterIsNamed) {
  expect_error<InvalidArgument>([] { gen("stencil9"); }, {"'stencil9'", "stencil27"});
  expect_error<InvalidArgument>([] { gen("stencil27:m=4"); }, {"'m'", "stencil27", "nx"});
  // A parameter of another kind is unknown here.
  expect_error<InvalidArgument>([] { gen("stencil5:nz=4"); }, {"'nz'"});
}

TEST(GenSpec, MalformedValuesAreNamed) {
  expect_error<InvalidArgument>([] { gen("stencil27:n=abc"); }, {"n", "'abc'", "integer"});
  expect_error<InvalidArgument>([] { gen("stencil27:n=12x"); }, {"'12x'"});
  expect_error<InvalidArgument>([] { gen("stencil27:n=1.5"); }, {"'1.5'"});
  expect_error<InvalidArgument>([] { gen("stencil27:n=-3"); }, {"'-3'", ">= 0"});
  expect_error<InvalidArgument>([] { gen("random:density=lots"); }, {"density", "'lots'"});
  expect_error<InvalidArgument>([] { gen("random:density=nan"); }, {"density", "finite"});
  expect_error<InvalidArgument>([] { gen("uniform:seed=-1"); }, {"seed", "'-1'"});
  expect_error<InvalidArgument>([] { gen("uniform:rows=10,cols=5,per_row=6"); },
                                {"per_row", "cols"});
}

TEST(GenSpec, OversizedResultsAreRefusedBeforeAllocating) {
  // Each of these would need gigabytes: a generator that allocated first
  // would fail with std::bad_alloc (or take minutes), not with SizeError.
  expect_error<SizeError>([] { gen("stencil27:n=3000000000"); }, {"n", "32-bit"});
  expect_error<SizeError>([] { gen("stencil27:n=2000"); }, {"stencil27", "32-bit"});  // 8e9 rows
  expect_error<SizeError>([] { gen("stencil27:n=1000"); },
                          {"stencil27", "32-bit"});  // 1e9 rows, 2.7e10 nnz
  expect_error<SizeError>([] { gen("stencil7:nx=50000,ny=50000,nz=1"); },
                          {"32-bit"});  // 2.5e9 rows
  expect_error<SizeError>([] { gen("dense:rows=100000,cols=100000"); }, {"dense", "32-bit"});
  expect_error<SizeError>([] { gen("uniform:rows=100000000,cols=1000,per_row=100"); }, {"uniform"});
  expect_error<SizeError>([] { gen("random:rows=100000,cols=100000,density=0.5"); }, {"random"});
  expect_error<SizeError>([] { gen("rmat:scale=31"); }, {"rmat", "scale"});
  expect_error<SizeError>([] { gen("rmat:scale=28,edge_factor=16"); }, {"rmat"});
  expect_error<SizeError>([] { gen("blockfem:n=200,block=10"); }, {"blockfem"});
  expect_error<SizeError>([] { gen("banded:rows=1000000000,lower=2,upper=2"); }, {"banded"});
  expect_error<SizeError>([] { gen("widelp:rows=200000,cols=100000,per_row=20000"); }, {"widelp"});
}

TEST(GenSpec, DefaultsAreUsedAndDerivedDefaultsFollowN) {
  EXPECT_EQ(gen("stencil7"), gen_stencil_3d(32, 32, 32, 7));
  EXPECT_EQ(gen("stencil27:n=5,nz=2"), gen_stencil_3d(5, 5, 2, 27));
  EXPECT_EQ(gen("stencil5:nx=6"), gen_stencil_2d_5pt(6, 128));
  EXPECT_EQ(gen("circuit:rows=50,cols=50,per_row=2,huge_rows=1,huge_length=40,seed=4"),
            gen("fewhuge:rows=50,cols=50,per_row=2,huge_rows=1,huge_length=40,seed=4"));
  EXPECT_EQ(gen("rmat:scale=8"), gen_rmat(8, 16, 0.57, 0.19, 0.19, 1));
}

TEST(GenSpec, ShuffleKeepsEveryRowAndMovesMostOfThem) {
  const Csr<double> natural = gen("stencil7:n=12");
  EXPECT_EQ(gen("stencil7:n=12,shuffle=0"), natural);
  const Csr<double> shuffled = gen("stencil7:n=12,shuffle=5");
  EXPECT_EQ(shuffled, gen("stencil7:n=12,shuffle=5"));  // the seed decides the order
  EXPECT_NE(shuffled, gen("stencil7:n=12,shuffle=6"));
  ASSERT_EQ(shuffled.rows, natural.rows);
  ASSERT_EQ(shuffled.nnz(), natural.nnz());
  // Each row of the shuffled matrix is one row of the natural one, each used once.
  auto row_of = [](const Csr<double>& a, index_t row) {
    return std::vector<index_t>(a.col_idx.begin() + a.row_ptr[row],
                                a.col_idx.begin() + a.row_ptr[row + 1]);
  };
  std::multiset<std::vector<index_t>> natural_rows, shuffled_rows;
  index_t moved = 0;
  for (index_t row = 0; row < natural.rows; ++row) {
    natural_rows.insert(row_of(natural, row));
    shuffled_rows.insert(row_of(shuffled, row));
    moved += row_of(natural, row) != row_of(shuffled, row);
  }
  EXPECT_EQ(shuffled_rows, natural_rows);
  EXPECT_GT(moved, natural.rows * 9 / 10);
  EXPECT_THROW(gen("stencil7:n=12,shuffle=-1"), InvalidArgument);
}

TEST(GenKinds, RegistryListsEveryKindWithHelpAndUniqueParameters) {
  std::set<std::string> names;
  for (const GeneratorKind& kind : generator_kinds()) {
    EXPECT_TRUE(names.insert(kind.name).second) << "duplicate kind " << kind.name;
    EXPECT_FALSE(kind.help.empty()) << kind.name;
    std::set<std::string> params;
    for (const GeneratorParam& param : kind.params) {
      EXPECT_TRUE(params.insert(param.name).second) << kind.name << " repeats " << param.name;
      EXPECT_FALSE(param.help.empty()) << kind.name << "." << param.name;
      // Each parameter can be given explicitly with its default value.
      if (!param.default_value.empty()) {
        EXPECT_NO_THROW(generate(
            parse_generator_spec(kind.name + ":" + param.name + "=" + param.default_value)));
      }
    }
  }
  for (const char* expected :
       {"stencil5", "stencil7", "stencil27", "random", "constant_row", "structured", "uniform",
        "rmat", "blockfem", "banded", "tridiagonal", "dense", "widelp", "fewhuge", "circuit"})
    EXPECT_EQ(names.count(expected), 1u) << expected;
}

}  // namespace
}  // namespace spmv
