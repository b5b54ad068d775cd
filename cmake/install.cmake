# `cmake --install <build> --prefix P`: the public headers, libspmv.a and the
# package files, so that a consumer writes
#   find_package(spmv 0.1 REQUIRED)
#   target_link_libraries(app PRIVATE spmv::spmv)
# The static library's link interface carries what its objects need: the
# OpenMP runtime (libgomp.a by path, or OpenMP::OpenMP_CXX), Threads, static
# zlib, SuiteSparse AMD's static archives by path, METIS (the shared library,
# installed beside libspmv.a and named by its installed path), and with CUDA
# the static CUDA runtime, cuSPARSE and cuBLAS. spmvConfig.cmake finds those
# packages.
include(CMakePackageConfigHelpers)

set(SPMV_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/spmv)

install(DIRECTORY include/spmv DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(TARGETS spmv spmv_openmp EXPORT spmvTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
if(SPMV_HAVE_METIS)
  install(FILES ${SPMV_METIS_COPY} DESTINATION ${CMAKE_INSTALL_LIBDIR})
endif()
install(EXPORT spmvTargets NAMESPACE spmv:: DESTINATION ${SPMV_INSTALL_CMAKEDIR})

configure_package_config_file(cmake/spmvConfig.cmake.in ${CMAKE_CURRENT_BINARY_DIR}/spmvConfig.cmake
                              INSTALL_DESTINATION ${SPMV_INSTALL_CMAKEDIR})
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/spmvConfigVersion.cmake
                                 COMPATIBILITY SameMajorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/spmvConfig.cmake
              ${CMAKE_CURRENT_BINARY_DIR}/spmvConfigVersion.cmake
        DESTINATION ${SPMV_INSTALL_CMAKEDIR})
