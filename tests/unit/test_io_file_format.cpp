// Format names, extensions, and the read_matrix / write_matrix dispatch.
#include "test_io_support.hpp"

namespace spmv::test {
namespace {

TEST(FileFormat, NamesRoundTrip) {
  for (FileFormat format : {FileFormat::matrix_market, FileFormat::libsvm, FileFormat::binary})
    EXPECT_EQ(file_format_from_name(to_string(format)), format);
  EXPECT_STREQ(to_string(FileFormat::matrix_market), "mtx");
  EXPECT_STREQ(to_string(FileFormat::libsvm), "libsvm");
  EXPECT_STREQ(to_string(FileFormat::binary), "spmv");
  EXPECT_THROW(file_format_from_name("csv"), InvalidArgument);
}

TEST(FileFormat, FromExtension) {
  EXPECT_EQ(file_format_from_path("a/b.mtx"), FileFormat::matrix_market);
  EXPECT_EQ(file_format_from_path("b.MTX.GZ"), FileFormat::matrix_market);
  EXPECT_EQ(file_format_from_path("b.libsvm"), FileFormat::libsvm);
  EXPECT_EQ(file_format_from_path("b.svm"), FileFormat::libsvm);
  EXPECT_EQ(file_format_from_path("b.libsvm.gz"), FileFormat::libsvm);
  EXPECT_EQ(file_format_from_path("b.svm.gz"), FileFormat::libsvm);
  EXPECT_EQ(file_format_from_path("b.spmv"), FileFormat::binary);
  for (const char* unknown : {"b.txt", "a9a.gz", "heart_scale", "b.spmv.gz", "mtx"}) {
    try {
      file_format_from_path(unknown);
      ADD_FAILURE() << "accepted " << unknown;
    } catch (const InvalidArgument& e) {
      EXPECT_NE(std::string(e.what()).find(std::string("'") + unknown + "'"), std::string::npos) << e.what();
    }
  }
}

TEST(FileFormat, WriteAndReadByExtension) {
  const Csr<double> a = from_triplets(3, 3, {{0, 0, 0.25}, {1, 2, -1}, {2, 1, 3}});
  for (const char* name : {"m.mtx", "m.mtx.gz", "m.svm", "m.libsvm.gz", "m.spmv"}) {
    SCOPED_TRACE(name);
    const std::string path = scratch_path(name);
    write_matrix(path, a);
    EXPECT_EQ(read_matrix<double>(path), a);
    EXPECT_EQ(read_matrix<float>(path), cast<float>(a));
  }
  // LIBSVM output carries label 0 on every row.
  EXPECT_EQ(read_libsvm<double>(scratch_path("m.svm")).labels, std::vector<double>(3, 0.0));
}

TEST(FileFormat, ForcedFormatIgnoresTheName) {
  const std::string path = write_scratch_file("named_wrongly.txt", "1 1:2 3:4\n-1 2:1\n");
  EXPECT_EQ(read_matrix<double>(path, FileFormat::libsvm), from_triplets(2, 3, {{0, 0, 2}, {0, 2, 4}, {1, 1, 1}}));
  EXPECT_THROW(read_matrix<double>(path), InvalidArgument);
  // The wrong format forced: a clear parse error, not a wrong matrix.
  EXPECT_THROW(read_matrix<double>(path, FileFormat::matrix_market), ParseError);
  EXPECT_THROW(read_matrix<double>(path, FileFormat::binary), ParseError);
}

TEST(FileFormat, WriteToUnknownExtensionWritesNothing) {
  const std::string path = scratch_path("m.unknown");
  EXPECT_THROW(write_matrix(path, from_triplets(1, 1, {})), InvalidArgument);
  EXPECT_FALSE(std::filesystem::exists(path));
}

}  // namespace
}  // namespace spmv::test
